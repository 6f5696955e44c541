import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { CurrentUser, Public } from '../graphql/auth.js';
import type { AuthUser, Context } from '../graphql/context.js';
import { ChangePasswordInput, ResetPasswordInput } from './account.inputs.js';
import { toAuthPayload, toMember } from './account.mappers.js';
import { Member } from './account.types.js';
import type { AccountChangeService } from './account-change.service.js';
import { AuthPayload } from './session.types.js';

/** Setting a password: with an emailed token, from a fresh emailed sign-in, or with the current one. */
@Resolver()
export class PasswordResolver {
  constructor(private readonly accounts: AccountChangeService) {}

  @Public()
  @Mutation(() => AuthPayload, {
    description: 'Sets a new password with the emailed link token or code, and signs in. Other sessions end.',
  })
  async resetPassword(
    @Arg('input', () => ResetPasswordInput, { description: 'The emailed token and the new password.' })
    input: ResetPasswordInput,
    @Ctx() { clientIp }: Context,
  ): Promise<AuthPayload> {
    return toAuthPayload(await this.accounts.resetPassword(input, { clientIp }));
  }

  @Authorized()
  @Mutation(() => Member, {
    description:
      'Sets your password without the current one, from a session an emailed link (password reset, ' +
      'invitation, sign-in link or code) signed in within the last 15 minutes; otherwise ' +
      '`REAUTHENTICATION_NEEDED`. With two-factor sign-in on, the session must have passed it ' +
      '(`MFA_REQUIRED`). Every other session ends; this one stays.',
  })
  async setNewPassword(
    @Arg('newPassword', () => String, {
      description: 'At least 8 characters, at most 72 bytes, not a common password.',
    })
    newPassword: string,
    @CurrentUser() actor: AuthUser,
    @Ctx() { clientIp }: Context,
  ): Promise<Member> {
    const { user, profile } = await this.accounts.setNewPassword(actor, newPassword, { clientIp });
    return toMember(user, profile);
  }

  @Authorized()
  @Mutation(() => AuthPayload, {
    description: 'Changes your password (the current one is required). Every other session ends; use the new one.',
  })
  async changePassword(
    @Arg('input', () => ChangePasswordInput, { description: 'The current and the new password.' })
    input: ChangePasswordInput,
    @CurrentUser() actor: AuthUser,
    @Ctx() { clientIp }: Context,
  ): Promise<AuthPayload> {
    return toAuthPayload(await this.accounts.changePassword(actor, input, { clientIp }));
  }
}
