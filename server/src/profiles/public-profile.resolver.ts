import { Arg, Args, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import { Public } from '../graphql/auth.js';
import type { Context } from '../graphql/context.js';
import { Verse } from '../verses/verse.types.js';
import type { ProfileService } from './profile.service.js';
import { PublicProfile, VerseDayArgs } from './profile.types.js';

@Resolver(() => PublicProfile)
export class PublicProfileResolver {
  constructor(private readonly profiles: ProfileService) {}

  @Public()
  @Query(() => PublicProfile, {
    nullable: true,
    description: 'A public profile by username (any letter case); null unless it exists and is active and public.',
  })
  async profile(
    @Arg('username', () => String, { description: 'The username, in any letter case.' }) username: string,
    @Ctx() { loaders }: Context,
  ): Promise<PublicProfile | null> {
    return this.profiles.findPublic(username, loaders);
  }

  @FieldResolver(() => Verse, {
    description:
      'The verse the page shows on a day (`date`, or today in `timeZone`, or today in UTC), in `translation` or ' +
      "the member's chosen one: the verse of the day, or the member's pinned verse (Plus)",
  })
  async verse(
    @Root() profile: PublicProfile,
    @Ctx() { loaders }: Context,
    @Args(() => VerseDayArgs) { date, timeZone, translation }: VerseDayArgs,
  ): Promise<Verse> {
    return this.profiles.verseFor(profile.uid, loaders, { date, timeZone, translation });
  }
}
