import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { CurrentUser, Public } from '../graphql/auth.js';
import type { AuthUser, Context } from '../graphql/context.js';
import { ChangePasswordInput, EmailCodeInput, LoginInput, ResetPasswordInput, SignUpInput } from './account.inputs.js';
import { toAuthPayload, toMember, toSession } from './account.mappers.js';
import { Member } from './account.types.js';
import type { AccountService } from './account.service.js';
import { AuthPayload, EmailChangePayload, LogoutScope, Notice, SignUpPayload } from './session.types.js';

/** What the web app shows after a password-reset or sign-in link request, whatever the address (the original's words). */
const INBOX_NOTICE = 'Please check your inbox.';

@Resolver()
export class AccountResolver {
  constructor(private readonly accounts: AccountService) {}

  @Public()
  @Mutation(() => SignUpPayload, {
    description:
      'Creates an account with its user record and profile. Returns the session, or, when email ' +
      'confirmation is on, `confirmationSent` (then sign in after following the emailed link).',
  })
  async signUp(
    @Arg('input', () => SignUpInput, { description: 'The new account.' }) input: SignUpInput,
    @Ctx() { clientIp }: Context,
  ): Promise<SignUpPayload> {
    const outcome = await this.accounts.signUp(input, { clientIp });
    return Object.assign(new SignUpPayload(), {
      session: outcome.signedIn ? toSession(outcome.signedIn.session) : null,
      member: outcome.signedIn ? toMember(outcome.signedIn.user, outcome.signedIn.profile) : null,
      confirmationSent: outcome.confirmationSent,
    });
  }

  @Public()
  @Mutation(() => AuthPayload, { description: 'Signs in with email and password.' })
  async login(
    @Arg('input', () => LoginInput, { description: 'Email and password.' }) input: LoginInput,
    @Ctx() { clientIp }: Context,
  ): Promise<AuthPayload> {
    return toAuthPayload(await this.accounts.login(input, { clientIp }));
  }

  @Public()
  @Mutation(() => AuthPayload, {
    description: 'Exchanges a refresh token for a new session. Each refresh token works once.',
  })
  async refreshSession(
    @Arg('refreshToken', () => String, { description: 'The refresh token of the current session.' })
    refreshToken: string,
    @Ctx() { clientIp }: Context,
  ): Promise<AuthPayload> {
    return toAuthPayload(await this.accounts.refreshSession(refreshToken, { clientIp }));
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Ends this session (`local`, the default), the others, or all.' })
  async logout(
    @CurrentUser() actor: AuthUser,
    @Arg('scope', () => LogoutScope, { defaultValue: LogoutScope.local, description: 'Which sessions to end.' })
    scope: LogoutScope,
  ): Promise<boolean> {
    await this.accounts.logout(actor, scope);
    return true;
  }

  @Public()
  @Mutation(() => Notice, {
    description:
      'Emails a link and a code to set a new password. The answer is the same whether or not the address has an account.',
  })
  async requestPasswordReset(
    @Arg('email', () => String, { description: 'The address of the account.' }) email: string,
    @Ctx() { clientIp }: Context,
  ): Promise<Notice> {
    await this.accounts.requestPasswordReset(email, { clientIp });
    return Object.assign(new Notice(), { message: INBOX_NOTICE });
  }

  @Public()
  @Mutation(() => Notice, {
    description:
      'Emails a sign-in link and a 6-digit code to the account of this address (no account is made). ' +
      'The link signs in on the web; give the code to `signInWithEmailCode`. The answer is the same ' +
      'whether or not the address has an account.',
  })
  async requestSignInLink(
    @Arg('email', () => String, { description: 'The address of the account.' }) email: string,
    @Ctx() { clientIp }: Context,
  ): Promise<Notice> {
    await this.accounts.requestSignInLink(email, { clientIp });
    return Object.assign(new Notice(), { message: INBOX_NOTICE });
  }

  @Public()
  @Mutation(() => AuthPayload, {
    description:
      'Signs in with the 6-digit code of a sign-in email (`requestSignInLink`). `INVALID_TOKEN` when the ' +
      'code is wrong, used or expired; a code stops working after five tries.',
  })
  async signInWithEmailCode(
    @Arg('input', () => EmailCodeInput, { description: 'The address and the emailed code.' }) input: EmailCodeInput,
    @Ctx() { clientIp }: Context,
  ): Promise<AuthPayload> {
    return toAuthPayload(await this.accounts.signInWithEmailCode(input, { clientIp }));
  }

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

  @Public()
  @Mutation(() => AuthPayload, {
    description:
      "Opens a password-reset link: spends the link's token and answers a session that may call " +
      '`setNewPassword` for 15 minutes. `INVALID_TOKEN` at once when the link is used or expired.',
  })
  async openRecoveryLink(
    @Arg('token', () => String, { description: "The emailed link's `token_hash`." }) token: string,
    @Ctx() { clientIp }: Context,
  ): Promise<AuthPayload> {
    return toAuthPayload(await this.accounts.openRecoveryLink(token, { clientIp }));
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
  @Mutation(() => EmailChangePayload, {
    description:
      'Starts changing your email address: confirmation links go to the new address (and the current one). ' +
      'The change takes effect once confirmed. Needs `currentPassword` unless this session signed in ' +
      'in the last minutes (`REAUTHENTICATION_NEEDED`).',
  })
  async updateEmail(
    @Arg('email', () => String, { description: 'The new address.' }) email: string,
    @CurrentUser() actor: AuthUser,
    @Ctx() { clientIp }: Context,
    @Arg('currentPassword', () => String, {
      nullable: true,
      description: 'The password you sign in with now (not needed minutes after signing in).',
    })
    currentPassword?: string | null,
  ): Promise<EmailChangePayload> {
    const pendingEmail = await this.accounts.updateEmail(actor, email, { clientIp }, currentPassword ?? undefined);
    return Object.assign(new EmailChangePayload(), {
      pendingEmail,
      message: 'Please check your inbox: follow the links we sent to confirm the change.',
    });
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

  @Authorized()
  @Mutation(() => Boolean, {
    description:
      'Deletes your account, records and profile for good (your password is required). Plus ends too. ' +
      '`BILLING_NOT_CONFIGURED`, deleting nothing, if you have Stripe billing and payments are not set up on this server.',
  })
  async deleteAccount(
    @Arg('password', () => String, { description: 'Your password, to confirm it is you.' }) password: string,
    @CurrentUser() actor: AuthUser,
    @Ctx() { clientIp }: Context,
  ): Promise<boolean> {
    await this.accounts.deleteAccount(actor, password, { clientIp });
    return true;
  }
}
