import { Arg, Args, Authorized, Ctx, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import { CurrentUser } from '../graphql/auth.js';
import type { AuthUser, Context } from '../graphql/context.js';
import { Verse } from '../verses/verse.types.js';
import { UpdateProfileInput } from './profile.inputs.js';
import { toProfile } from './profile.mappers.js';
import type { ProfileService } from './profile.service.js';
import { Appearance, Profile, VerseDayArgs } from './profile.types.js';

@Resolver(() => Profile)
export class ProfileResolver {
  constructor(private readonly profiles: ProfileService) {}

  @Authorized()
  @Mutation(() => Profile, { description: 'Changes your name, look or visibility. Plus-only looks need Plus.' })
  async updateProfile(
    @Arg('input', () => UpdateProfileInput, { description: 'The changes.' }) input: UpdateProfileInput,
    @CurrentUser() actor: AuthUser,
  ): Promise<Profile> {
    return toProfile(await this.profiles.update(actor, input));
  }

  @Authorized()
  @Mutation(() => Profile, { description: 'Takes a new username (3–30 of a-z, 0-9, dot, underscore).' })
  async changeUsername(
    @Arg('username', () => String, { description: 'The new username; it is lowercased.' }) username: string,
    @CurrentUser() actor: AuthUser,
  ): Promise<Profile> {
    return toProfile(await this.profiles.changeUsername(actor, username));
  }

  @Authorized()
  @Mutation(() => Profile, { description: 'Marks the welcome screen as finished.' })
  async completeWelcome(@CurrentUser() actor: AuthUser): Promise<Profile> {
    return toProfile(await this.profiles.completeWelcome(actor));
  }

  @Authorized()
  @Mutation(() => Profile, {
    description: 'Keeps the verse `ref` on your page instead of the verse of the day (Plus).',
  })
  async pinVerse(
    @Arg('ref', () => String, { description: 'A written reference to one verse, e.g. "John 3:16".' }) ref: string,
    @CurrentUser() actor: AuthUser,
  ): Promise<Profile> {
    return toProfile(await this.profiles.pinVerse(actor, ref));
  }

  @Authorized()
  @Mutation(() => Profile, { description: 'Lets your page follow the verse of the day again.' })
  async unpinVerse(@CurrentUser() actor: AuthUser): Promise<Profile> {
    return toProfile(await this.profiles.unpinVerse(actor));
  }

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
