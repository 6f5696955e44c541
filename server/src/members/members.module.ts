import type { FeatureModule } from '../kernel/feature-module.js';
import type { AccountLifecycle } from './member-lifecycle.js';
import { UserRecord } from './user.entity.js';
import { userLoaderFactory } from './user.loaders.js';

declare module '../kernel/feature-module.js' {
  interface Services {
    /** What runs when an account ends; features that keep something of a member's add their hook when built. */
    accountLifecycle: AccountLifecycle[];
  }
  interface FeatureOptions {
    /** More account lifecycle hooks, run after the features' own. */
    accountLifecycle?: AccountLifecycle[];
  }
}

/** The member record that every other feature hangs from. */
export const membersModule: FeatureModule = {
  name: 'members',
  entities: [UserRecord],
  build: ({ options }) => ({ accountLifecycle: [...(options.accountLifecycle ?? [])] }),
  loaders: (dataSource) => {
    const user = userLoaderFactory(dataSource);
    return [{ names: ['userByUid'], make: () => ({ userByUid: user() }), members: { userByUid: 'key' } }];
  },
};
