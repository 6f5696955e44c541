import { AdminClient } from './admin.client.js';
import { FactorClient } from './factors.client.js';
import { fromTokenResponse } from './identity.mappers.js';
import { SignInClient } from './sign-in.client.js';
import type { IdentityClientOptions } from './identity.transport.js';
import { IdentityTransport } from './identity.transport.js';
import type { IdentitySession } from './identity.types.js';
import { IdentityError } from './identity.types.js';
import { UserClient } from './user.client.js';
import { RecoveryCodesClient } from './recovery-codes.client.js';

export { toIdentityError } from './identity.mappers.js';
export type { IdentityClientOptions } from './identity.transport.js';
export { IdentityError } from './identity.types.js';
export type {
  CallerInfo,
  IdentityFactor,
  IdentitySession,
  IdentityUser,
  TotpEnrollment,
  UserChanges,
  VerifyParams,
  VerifyType,
} from './identity.types.js';

/**
 * The server's only way to the identity service (embedded or hosted Supabase Auth), through
 * supabase-js. Every user operation gets a fresh client holding no session beyond the call; admin
 * calls share one service-role client. Failures are IdentityErrors. Each group of operations lives
 * in its own part (sign-in, user, factors, admin); this class is the one door to all of them.
 */
export class IdentityClient {
  /** Recovery codes (an extension of the embedded service). */
  readonly recoveryCodes: RecoveryCodesClient<IdentitySession>;
  private readonly sessions: SignInClient;
  private readonly user: UserClient;
  private readonly factors: FactorClient;
  private readonly admin: AdminClient;

  constructor(options: IdentityClientOptions) {
    const transport = new IdentityTransport(options);
    this.sessions = new SignInClient(transport);
    this.user = new UserClient(transport);
    this.factors = new FactorClient(transport);
    this.admin = new AdminClient(transport);
    this.recoveryCodes = new RecoveryCodesClient({
      ...options,
      fetch: transport.fetch,
      authUrl: transport.authUrl,
      timeoutMs: transport.timeoutMs,
      enabled: options.recoveryCodes ?? false,
      toSession: fromTokenResponse,
      fail: (status, code, message, cause) => new IdentityError(status, code, message, [], { cause }),
    });
  }

  /** Creates an account; `session` is null while the address awaits confirmation. */
  signUp(...args: Parameters<SignInClient['signUp']>) {
    return this.sessions.signUp(...args);
  }

  /** Signs in with email and password. */
  signInWithPassword(...args: Parameters<SignInClient['signInWithPassword']>) {
    return this.sessions.signInWithPassword(...args);
  }

  /** Exchanges a refresh token for a new session (the old refresh token is spent). */
  refreshSession(...args: Parameters<SignInClient['refreshSession']>) {
    return this.sessions.refreshSession(...args);
  }

  /** Ends the token's session (`local`), every session (`global`) or the others; an ended session is fine. */
  signOut(...args: Parameters<SignInClient['signOut']>) {
    return this.sessions.signOut(...args);
  }

  /** Emails a password-reset link; answers the same whether or not the address has an account. */
  resetPasswordForEmail(...args: Parameters<SignInClient['resetPasswordForEmail']>) {
    return this.sessions.resetPasswordForEmail(...args);
  }

  /** Emails a sign-in link and code to an existing account (see SignInClient.signInWithOtp). */
  signInWithOtp(...args: Parameters<SignInClient['signInWithOtp']>) {
    return this.sessions.signInWithOtp(...args);
  }

  /** Accepts an emailed link token or code; null while a secure email change waits for its second link. */
  verifyOtp(...args: Parameters<SignInClient['verifyOtp']>) {
    return this.sessions.verifyOtp(...args);
  }

  /** The account of an access token, asked of the identity service (detects ended sessions). */
  getUser(...args: Parameters<UserClient['getUser']>) {
    return this.user.getUser(...args);
  }

  /** Changes the caller's own account: metadata, password or email (see UserClient.updateUser). */
  updateUser(...args: Parameters<UserClient['updateUser']>) {
    return this.user.updateUser(...args);
  }

  /** Enrolls a TOTP factor for the session's account (unverified until a code confirms it). */
  enrollTotp(...args: Parameters<FactorClient['enrollTotp']>) {
    return this.factors.enrollTotp(...args);
  }

  /** Verifies a factor with a code; answers the session raised to aal2 (the old refresh token is spent). */
  verifyTotp(...args: Parameters<FactorClient['verifyTotp']>) {
    return this.factors.verifyTotp(...args);
  }

  /** Removes a factor of the session's account (a verified one needs an aal2 session). */
  unenrollFactor(...args: Parameters<FactorClient['unenrollFactor']>) {
    return this.factors.unenrollFactor(...args);
  }

  getUserById(...args: Parameters<AdminClient['getUserById']>) {
    return this.admin.getUserById(...args);
  }

  /** One page of accounts, newest first, with the total count. */
  listUsers(...args: Parameters<AdminClient['listUsers']>) {
    return this.admin.listUsers(...args);
  }

  /** Changes an account as an administrator (see AdminClient.updateUserById). */
  updateUserById(...args: Parameters<AdminClient['updateUserById']>) {
    return this.admin.updateUserById(...args);
  }

  /** Deletes one of an account's second factors (a lost phone); the sessions it raised fall to aal1. */
  deleteFactorById(...args: Parameters<AdminClient['deleteFactorById']>) {
    return this.admin.deleteFactorById(...args);
  }

  /** Deletes an account with its sessions. */
  deleteUser(...args: Parameters<AdminClient['deleteUser']>) {
    return this.admin.deleteUser(...args);
  }
}
