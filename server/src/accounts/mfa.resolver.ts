import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { AllowPartialSignIn, CurrentUser } from '../graphql/auth.js';
import type { AuthUser, Context } from '../graphql/context.js';
import { toAuthPayload } from './account.mappers.js';
import type { MfaService } from './mfa.service.js';
import { MfaSetup, MfaStatus } from './mfa.types.js';
import { AuthPayload } from './session.types.js';

@Resolver()
export class MfaResolver {
  constructor(private readonly mfa: MfaService) {}

  @Authorized()
  @AllowPartialSignIn()
  @Query(() => MfaStatus, { description: 'Whether two-factor sign-in is on, and whether this session passed it.' })
  async mfaStatus(@CurrentUser() actor: AuthUser): Promise<MfaStatus> {
    return Object.assign(new MfaStatus(), await this.mfa.status(actor));
  }

  @Authorized()
  @Mutation(() => MfaSetup, {
    description:
      'Starts turning two-factor sign-in on: returns the QR code to scan with an authenticator app. ' +
      'Confirm with `verifyMfa`. `BAD_USER_INPUT` when it is already on.',
  })
  async startMfaSetup(@CurrentUser() actor: AuthUser): Promise<MfaSetup> {
    const setup = await this.mfa.startSetup(actor);
    return Object.assign(new MfaSetup(), setup);
  }

  @Authorized()
  @AllowPartialSignIn()
  @Mutation(() => AuthPayload, {
    description:
      "Checks a 6-digit code from the member's authenticator app: finishes a setup (two-factor sign-in is " +
      'then on), or passes two-factor sign-in after `login`. Returns the new session; use it from now on. ' +
      '`INVALID_TOKEN` for a wrong or reused code.',
  })
  async verifyMfa(
    @Arg('code', () => String, { description: 'The 6-digit code the app shows now.' }) code: string,
    @CurrentUser() actor: AuthUser,
    @Ctx() { clientIp }: Context,
  ): Promise<AuthPayload> {
    return toAuthPayload(await this.mfa.verify(actor, code, { clientIp }));
  }

  @Authorized()
  @Mutation(() => [String], {
    description:
      'Ten new single-use recovery codes, shown once: each signs in once in place of an authenticator-app ' +
      'code (`verifyRecoveryCode`). The earlier codes stop working. `MFA_REQUIRED` unless this session ' +
      'passed two-factor sign-in; `RECOVERY_CODES_UNAVAILABLE` with hosted Supabase Auth.',
  })
  async generateRecoveryCodes(@CurrentUser() actor: AuthUser): Promise<string[]> {
    return this.mfa.generateRecoveryCodes(actor);
  }

  @Authorized()
  @AllowPartialSignIn()
  @Mutation(() => AuthPayload, {
    description:
      'Passes two-factor sign-in after `login` with one of the recovery codes, which is spent. Returns the new ' +
      'session. `INVALID_TOKEN` for a wrong code, `RECOVERY_CODE_USED` for a used one, `RATE_LIMITED` after ' +
      'too many wrong codes, `RECOVERY_CODES_UNAVAILABLE` with hosted Supabase Auth.',
  })
  async verifyRecoveryCode(
    @Arg('code', () => String, { description: 'A recovery code, as shown (case and dashes do not matter).' })
    code: string,
    @CurrentUser() actor: AuthUser,
    @Ctx() { clientIp }: Context,
  ): Promise<AuthPayload> {
    return toAuthPayload(await this.mfa.verifyRecoveryCode(actor, code, { clientIp }));
  }

  @Authorized()
  @Mutation(() => Boolean, {
    description: 'Turns two-factor sign-in off. `MFA_REQUIRED` unless this session passed it.',
  })
  async disableMfa(@CurrentUser() actor: AuthUser): Promise<boolean> {
    await this.mfa.disable(actor);
    return true;
  }
}
