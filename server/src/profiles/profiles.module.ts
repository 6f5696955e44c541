import { resolver } from '../kernel/feature-module.js';
import type { FeatureModule } from '../kernel/feature-module.js';
import { ProfileRecord } from './profile.entity.js';
import { pageEndsWithAccount, publishPageChanges } from './page-changes.js';
import { profileLoadersFactory } from './profile.loaders.js';
import { ProfileFieldsResolver } from './profile-fields.resolver.js';
import { ProfileResolver } from './profile.resolver.js';
import { ProfileService } from './profile.service.js';
import { PublicProfileResolver } from './public-profile.resolver.js';
import { UsernameAvailabilityResolver } from './username-availability.resolver.js';
import { UsernameAvailabilityService } from './username-availability.service.js';

declare module '../kernel/feature-module.js' {
  interface Services {
    profiles: ProfileService;
  }
}

/** Members' pages: what visitors see, usernames, the look. */
export const profilesModule: FeatureModule = {
  name: 'profiles',
  entities: [ProfileRecord],
  build: ({ dataSource, live }, { verses, accountLifecycle }) => {
    const pageChanged = publishPageChanges(live);
    accountLifecycle.push(pageEndsWithAccount(pageChanged));
    return { profiles: new ProfileService(dataSource, verses, pageChanged) };
  },
  resolvers: [
    resolver(ProfileResolver, ({ profiles }) => new ProfileResolver(profiles)),
    resolver(ProfileFieldsResolver, ({ profiles }) => new ProfileFieldsResolver(profiles)),
    resolver(PublicProfileResolver, ({ profiles }) => new PublicProfileResolver(profiles)),
    resolver(
      UsernameAvailabilityResolver,
      ({ identity }, { dataSource }) =>
        new UsernameAvailabilityResolver(new UsernameAvailabilityService(dataSource, identity.redis)),
    ),
  ],
  loaders: (dataSource) => {
    const make = profileLoadersFactory(dataSource);
    // Made together: each primes the other, and both prime the request's `userByUid`.
    return [
      {
        names: ['profileByUid', 'profileByUsername'],
        make: (request) => make(request),
        // A username nobody has names no member: such an answer goes only when the cache is emptied.
        members: { profileByUid: 'key', profileByUsername: 'found' },
      },
    ];
  },
};
