import { Arg, Authorized, Mutation, Resolver } from 'type-graphql';
import { CurrentUser } from '../graphql/auth.js';
import type { AuthUser } from '../graphql/context.js';
import { UpdateProfileInput } from './profile.inputs.js';
import { toProfile } from './profile.mappers.js';
import type { ProfileService } from './profile.service.js';
import { Profile } from './profile.types.js';

/** The changes a member makes to their own page. */
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
}
