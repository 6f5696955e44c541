import { Arg, Args, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import { Public } from '../graphql/auth.js';
import type { Context } from '../graphql/context.js';
import { appError, ErrorCode } from '../graphql/errors.js';
import { LiveSubscription } from '../graphql/subscriptions.js';
import { Verse } from '../verses/verse.types.js';
import type { ProfileService } from './profile.service.js';
import { PublicProfile, VerseDayArgs } from './profile.types.js';

/** The member whose page each `profileChanged` subscription follows, by its operation's context. */
const followedPages = new WeakMap<Context, string>();

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

  @Public()
  @LiveSubscription<'profileChanged', PublicProfileResolver, { username: string }>(() => PublicProfile, {
    description:
      "A page's public fields whenever the member changes them (for embeds). Ends quietly when the page is hidden or removed.",
    topic: 'profileChanged',
    // Keyed by the member, not the name: a page whose username changes is still followed.
    key: async ({ args, context }, resolver) => {
      const profile = await resolver.profile(args.username, context);
      if (!profile) throw appError(ErrorCode.NOT_FOUND, `There is no public page @${args.username.trim()}.`);
      followedPages.set(context, profile.uid);
      return profile.uid;
    },
    endsAt: async (_event, { context }, resolver) => (await resolver.current(context)) === null,
  })
  async profileChanged(
    @Arg('username', () => String, { description: 'The username, in any letter case.' }) _username: string,
    @Ctx() context: Context,
  ): Promise<PublicProfile> {
    const profile = await this.current(context);
    if (!profile) throw appError(ErrorCode.NOT_FOUND, 'This page is no longer public.');
    return profile;
  }

  /**
   * The page a `profileChanged` subscription follows, as visitors see it now (null once hidden or
   * removed): looked up by the uid its subscription was keyed by, whatever its username is now.
   */
  async current(context: Context): Promise<PublicProfile | null> {
    const followed = followedPages.get(context);
    if (!followed) return null;
    const record = await context.loaders.profileByUid.load(followed);
    return record ? this.profiles.findPublic(record.username, context.loaders) : null;
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
