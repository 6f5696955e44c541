import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../graphql/context.js';
import { Verse } from '../verses/verse.types.js';
import type { ProfileService } from './profile.service.js';
import { Appearance, Profile, VerseDayArgs } from './profile.types.js';

/** What a member's own page shows that is worked out when asked: the day's verse and the look. */
@Resolver(() => Profile)
export class ProfileFieldsResolver {
  constructor(private readonly profiles: ProfileService) {}

  @FieldResolver(() => Verse, {
    description:
      'The verse the page shows on a day (`date`, or today in `timeZone`, or today in UTC), in `translation` or ' +
      "the member's chosen one: the verse of the day, or the member's pinned verse (Plus)",
  })
  async verse(
    @Root() profile: Profile,
    @Ctx() { loaders }: Context,
    @Args(() => VerseDayArgs) { date, timeZone, translation }: VerseDayArgs,
  ): Promise<Verse> {
    return this.profiles.verseFor(profile.uid, loaders, { date, timeZone, translation });
  }

  @FieldResolver(() => Appearance, { description: 'The look visitors see (Plus-only choices need Plus to show).' })
  appearance(@Root() profile: Profile, @Ctx() { loaders }: Context): Promise<Appearance> {
    return this.profiles.appearanceFor(profile.uid, loaders);
  }
}
