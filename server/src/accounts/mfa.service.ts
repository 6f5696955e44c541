import type { GraphQLError } from 'graphql';
import type { AuthUser } from '../graphql/context.js';
import { appError, badUserInput, ErrorCode } from '../graphql/errors.js';
import { hasVerifiedFactor, requireSecondFactor } from '../identity/assurance.js';
import type { CallerInfo, IdentityClient, IdentityUser, TotpEnrollment } from '../identity/identity.client.js';
import { IdentityError } from '../identity/identity.client.js';
import type { AccountService, SignedIn } from './account.service.js';
import { fromIdentityError } from './identity-errors.js';

/** The name the web app gives the one authenticator app a member sets up. */
const FACTOR_NAME = 'Authenticator app';
const CODE = /^\d{6}$/;

/** The authenticator-app factors: passkeys (WebAuthn factors) are added and removed on their own. */
const totpOnly = (user: IdentityUser): IdentityUser => ({
  ...user,
  factors: user.factors.filter((factor) => factor.type === 'totp'),
});

/** Whether two-factor sign-in is on, and whether this session passed it. */
export interface MfaState {
  enabled: boolean;
  verified: boolean;
}

/**
 * Two-factor sign-in with an authenticator app (TOTP) through the identity service: set up,
 * confirm, pass at sign-in, turn off. A member has at most one app here.
 */
export class MfaService {
  constructor(
    private readonly identity: IdentityClient,
    private readonly accounts: AccountService,
  ) {}

  async status(actor: AuthUser): Promise<MfaState> {
    const user = totpOnly(await this.call(() => this.identity.getUser(actor.accessToken)));
    return { enabled: hasVerifiedFactor(user), verified: actor.aal === 'aal2' };
  }

  /** Starts a setup: an unfinished earlier one is dropped. Refused while two-factor sign-in is on. */
  async startSetup(actor: AuthUser): Promise<TotpEnrollment> {
    const user = totpOnly(await this.call(() => this.identity.getUser(actor.accessToken)));
    if (hasVerifiedFactor(user)) throw badUserInput('Two-factor sign-in is already on.');
    return this.call(async () => {
      for (const factor of user.factors) await this.identity.unenrollFactor(actor, factor.id);
      return this.identity.enrollTotp(actor, FACTOR_NAME);
    });
  }

  /**
   * Checks a code from the app: it finishes a setup, or passes two-factor sign-in. Returns the
   * session raised to aal2 (the caller's earlier refresh token stops working).
   */
  async verify(actor: AuthUser, code: string, caller: CallerInfo): Promise<SignedIn> {
    const digits = code.replace(/\s/g, '');
    if (!CODE.test(digits)) throw badUserInput('Enter the 6-digit code from your authenticator app.', 'code');
    const user = totpOnly(await this.call(() => this.identity.getUser(actor.accessToken)));
    const factor = user.factors.find((f) => f.status === 'verified') ?? user.factors.at(-1);
    if (!factor) throw badUserInput('Two-factor sign-in is not set up: start a setup first.', 'code');
    let session;
    try {
      session = await this.identity.verifyTotp(actor, factor.id, digits, caller);
    } catch (error) {
      if (error instanceof IdentityError && error.code === 'mfa_verification_failed') {
        throw appError(ErrorCode.INVALID_TOKEN, 'This code is not right or was already used. Enter the current one.', {
          field: 'code',
          identityCode: error.code,
        });
      }
      throw fromIdentityError(error);
    }
    return this.accounts.signedIn(session);
  }

  /**
   * A new set of ten recovery codes, shown once; the earlier set stops working. Needs a session
   * that passed two-factor sign-in (the assurance rule) and two-factor sign-in on.
   */
  async generateRecoveryCodes(actor: AuthUser): Promise<string[]> {
    await requireSecondFactor(this.identity, actor);
    try {
      return await this.identity.recoveryCodes.generate(actor);
    } catch (error) {
      throw recoveryError(error);
    }
  }

  /** Passes two-factor sign-in with a recovery code, which is spent. Returns the session raised to aal2. */
  async verifyRecoveryCode(actor: AuthUser, code: string, caller: CallerInfo): Promise<SignedIn> {
    if (code.replace(/[\s-]/g, '') === '') throw badUserInput('Enter one of your recovery codes.', 'code');
    let session;
    try {
      session = await this.identity.recoveryCodes.verify(actor, code, caller);
    } catch (error) {
      throw recoveryError(error);
    }
    return this.accounts.signedIn(session);
  }

  /** Turns two-factor sign-in off; needs a session that passed it. */
  async disable(actor: AuthUser): Promise<void> {
    await requireSecondFactor(this.identity, actor);
    const user = totpOnly(await this.call(() => this.identity.getUser(actor.accessToken)));
    await this.call(async () => {
      for (const factor of user.factors) await this.identity.unenrollFactor(actor, factor.id);
    });
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw fromIdentityError(error);
    }
  }
}

/** The coded errors of recovery codes; the rest as every identity failure. */
function recoveryError(error: unknown): GraphQLError {
  if (!(error instanceof IdentityError)) throw error;
  const details = { field: 'code', identityCode: error.code };
  switch (error.code) {
    case 'recovery_codes_unavailable':
      return appError(
        ErrorCode.RECOVERY_CODES_UNAVAILABLE,
        'Recovery codes are not available on this server: they need its own identity service.',
        { identityCode: error.code },
      );
    case 'recovery_code_used':
      return appError(ErrorCode.RECOVERY_CODE_USED, 'This recovery code was used already: each works once.', details);
    case 'mfa_verification_failed':
      return appError(ErrorCode.INVALID_TOKEN, 'This recovery code is not right. Check it and try again.', details);
    case 'mfa_factor_not_found':
      return badUserInput('Turn two-factor sign-in on first.', 'code');
    default:
      return fromIdentityError(error);
  }
}
