import { isAuthSessionMissingError } from '@supabase/auth-js';
import { check, toIdentityError, toSession, toUser } from './identity.mappers.js';
import type { IdentityTransport } from './identity.transport.js';
import type { CallerInfo, IdentitySession, IdentityUser, VerifyParams } from './identity.types.js';
import { IdentityError } from './identity.types.js';

/** Making, spending and ending sessions: sign-up, password, refresh, sign-out and emailed links. */
export class SignInClient {
  constructor(private readonly transport: IdentityTransport) {}

  /** Creates an account; `session` is null while the address awaits confirmation. */
  async signUp(
    input: { email: string; password: string; data?: Record<string, unknown> },
    caller: CallerInfo = {},
  ): Promise<{ user: IdentityUser; session: IdentitySession | null }> {
    const data = check(
      await this.transport.userAuth(caller).signUp({
        email: input.email,
        password: input.password,
        options: { data: input.data, emailRedirectTo: caller.redirectTo },
      }),
    );
    if (!data.user) throw new IdentityError(502, 'identity_bad_response', 'The identity service returned no user');
    return { user: toUser(data.user), session: data.session ? toSession(data.session) : null };
  }

  /** Signs in with email and password. */
  async signInWithPassword(
    input: { email: string; password: string },
    caller: CallerInfo = {},
  ): Promise<IdentitySession> {
    const data = check(await this.transport.userCall(caller, (auth) => auth.signInWithPassword(input)));
    return toSession(data.session);
  }

  /** Exchanges a refresh token for a new session (the old refresh token is spent). */
  async refreshSession(refreshToken: string, caller: CallerInfo = {}): Promise<IdentitySession> {
    const data = check(
      await this.transport.userCall(caller, (auth) => auth.refreshSession({ refresh_token: refreshToken })),
    );
    if (!data.session) throw new IdentityError(401, 'session_not_found', 'The session has ended');
    return toSession(data.session);
  }

  /** Ends the token's session (`local`), every session (`global`) or the others; an ended session is fine. */
  async signOut(accessToken: string, scope: 'global' | 'local' | 'others' = 'global'): Promise<void> {
    const { error } = await this.transport.admin.signOut(accessToken, scope);
    if (!error || isAuthSessionMissingError(error) || [401, 403, 404].includes(error.status ?? 0)) return;
    throw toIdentityError(error);
  }

  /** Emails a password-reset link; answers the same whether or not the address has an account. */
  async resetPasswordForEmail(email: string, caller: CallerInfo = {}): Promise<void> {
    check(await this.transport.userAuth(caller).resetPasswordForEmail(email, { redirectTo: caller.redirectTo }));
  }

  /**
   * Emails a sign-in link and 6-digit code to an existing account; no account is made for a new
   * address. The embedded service answers the same for every address; Supabase Auth answers an
   * unknown one with `otp_disabled`, which the caller must treat as success to say the same.
   */
  async signInWithOtp(email: string, caller: CallerInfo = {}): Promise<void> {
    check(
      await this.transport.userAuth(caller).signInWithOtp({
        email,
        options: { shouldCreateUser: false, emailRedirectTo: caller.redirectTo },
      }),
    );
  }

  /**
   * Accepts an emailed link token or code. Returns the new session, or null when a secure email
   * change still waits for its second link.
   */
  async verifyOtp(params: VerifyParams, caller: CallerInfo = {}): Promise<IdentitySession | null> {
    const auth = this.transport.userAuth(caller);
    const data = check(
      await ('tokenHash' in params
        ? auth.verifyOtp({ type: params.type, token_hash: params.tokenHash })
        : auth.verifyOtp({ type: params.type, email: params.email, token: params.token })),
    );
    return data.session ? toSession(data.session) : null;
  }
}
