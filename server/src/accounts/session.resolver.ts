import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { AllowPartialSignIn, CurrentUser, Public } from '../graphql/auth.js';
import type { AuthUser, Context } from '../graphql/context.js';
import { LoginInput, SignUpInput } from './account.inputs.js';
import { toAuthPayload, toMember, toSession } from './account.mappers.js';
import type { AccountService } from './account.service.js';
import { AuthPayload, LogoutScope, SignUpPayload } from './session.types.js';

/** Signing up, in with a password, and out; keeping a session fresh. */
@Resolver()
export class SessionResolver {
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
  @AllowPartialSignIn()
  @Mutation(() => Boolean, {
    description:
      'Ends this session (`local`, the default), the others, or all. Before two-factor sign-in is passed, ' +
      'it ends this session only, whatever the scope.',
  })
  async logout(
    @CurrentUser() actor: AuthUser,
    @Arg('scope', () => LogoutScope, { defaultValue: LogoutScope.local, description: 'Which sessions to end.' })
    scope: LogoutScope,
  ): Promise<boolean> {
    await this.accounts.logout(actor, scope);
    return true;
  }
}
