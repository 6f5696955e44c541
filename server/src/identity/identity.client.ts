import {
  AuthClient,
  isAuthRetryableFetchError,
  isAuthSessionMissingError,
  isAuthWeakPasswordError,
} from '@supabase/supabase-js';
import type { AuthError, Session, User } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { tracedFetch } from '../http/request-trace.js';
import { operationDeadline } from './deadline.js';
import { RecoveryCodesClient } from './recovery-codes.client.js';

/** supabase-js's auth client; the rest of a Supabase client (database, storage, realtime) is never used. */
type Auth = InstanceType<typeof AuthClient>;

/**
 * How long one identity operation (all the requests of one user call, or one admin request) may
 * take before it fails closed: under 5 s, so that a login or sign-up answers within 5 s with the
 * time this server takes around it.
 */
const IDENTITY_TIMEOUT_MS = 4000;
/** `setSession` keeps the refresh token without using it while the access token is still valid. */
const UNUSED_REFRESH_TOKEN = 'not-refreshable';

/** A failed identity operation, with Supabase Auth's HTTP status and error code. */
export class IdentityError extends Error {
  override name = 'IdentityError';

  constructor(
    readonly status: number,
    /** Supabase Auth's error code (`invalid_credentials`, `weak_password`, …), or `identity_unavailable`. */
    readonly code: string,
    message: string,
    /** For `weak_password`: `length`, `characters`, `pwned`. */
    readonly reasons: string[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** An identity account. */
export interface IdentityUser {
  id: string;
  email: string;
  emailConfirmedAt: string | null;
  /** The address an email change waits to confirm. */
  newEmail: string | null;
  appMetadata: Record<string, unknown>;
  userMetadata: Record<string, unknown>;
  createdAt: string;
  /**
   * How many sign-in identities the account has. Zero marks the stand-in user Supabase Auth
   * answers a sign-up for an already registered address with, while confirmation is on.
   */
  identityCount: number;
  /** The account's second factors (TOTP apps), verified or still being set up. */
  factors: IdentityFactor[];
}

/** A second factor of an account. */
export interface IdentityFactor {
  id: string;
  type: string;
  status: 'verified' | 'unverified';
}

/** A TOTP factor just enrolled: what the authenticator app needs, shown once. */
export interface TotpEnrollment {
  factorId: string;
  secret: string;
  uri: string;
  /** The URI as an SVG QR code. */
  qrCodeSvg: string;
}

/** A signed-in session. */
export interface IdentitySession {
  accessToken: string;
  refreshToken: string;
  /** Unix seconds. */
  expiresAt: number;
  expiresIn: number;
  /** The access token's assurance level: `aal2` once a second factor was verified in the session. */
  aal: 'aal1' | 'aal2';
  user: IdentityUser;
}

/** Per-request details passed on to the identity service. */
export interface CallerInfo {
  /** The end user's address, so that the identity service's per-address limits apply to them, not to this server. */
  clientIp?: string;
  /** Where emailed links lead back to (must be allowed by the identity service). */
  redirectTo?: string;
}

/** What `updateUser` may change, with the current password that proves a sensitive change is the member's. */
export interface UserChanges {
  email?: string;
  password?: string;
  data?: Record<string, unknown>;
  /** Sent as `current_password` (Supabase Auth's field). */
  currentPassword?: string;
}

export type VerifyType = 'signup' | 'invite' | 'magiclink' | 'recovery' | 'email_change' | 'email';
export type VerifyParams = { type: VerifyType; tokenHash: string } | { type: VerifyType; email: string; token: string };

/** Where the identity service is and the keys to call it with. */
export interface IdentityClientOptions {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  timeoutMs?: number;
  /** The HTTP client supabase-js uses (tests wrap it to inject failures at the HTTP boundary). */
  fetch?: typeof fetch;
  /** Whether the service has the recovery-code extension (the embedded one; hosted Supabase Auth has not). */
  recoveryCodes?: boolean;
}

function toUser(user: User): IdentityUser {
  return {
    id: user.id,
    email: user.email ?? '',
    emailConfirmedAt: user.email_confirmed_at ?? null,
    newEmail: user.new_email ?? null,
    appMetadata: user.app_metadata,
    userMetadata: user.user_metadata,
    createdAt: user.created_at,
    identityCount: user.identities?.length ?? 0,
    factors: (user.factors ?? []).map((factor) => ({
      id: factor.id,
      type: factor.factor_type,
      status: factor.status === 'verified' ? 'verified' : 'unverified',
    })),
  };
}

const tokenAssurance = (accessToken: string): 'aal1' | 'aal2' =>
  decodeJwt(accessToken).aal === 'aal2' ? 'aal2' : 'aal1';

function toSession(session: Session): IdentitySession {
  return {
    aal: tokenAssurance(session.access_token),
    accessToken: session.access_token,
    refreshToken: session.refresh_token,
    expiresAt: session.expires_at ?? Math.floor(Date.now() / 1000) + session.expires_in,
    expiresIn: session.expires_in,
    user: toUser(session.user),
  };
}

/** A token response of the identity service (`access_token`, `refresh_token`, `expires_in`, `user`) as a session. */
function fromTokenResponse(body: Record<string, unknown>): IdentitySession {
  const { access_token: accessToken, refresh_token: refreshToken, expires_in: expiresIn, user } = body;
  if (typeof accessToken !== 'string' || typeof refreshToken !== 'string' || typeof expiresIn !== 'number' || !user) {
    throw new IdentityError(502, 'identity_bad_response', 'The identity service answered no session');
  }
  return {
    accessToken,
    refreshToken,
    expiresAt: Math.floor(Date.now() / 1000) + expiresIn,
    expiresIn,
    aal: tokenAssurance(accessToken),
    user: toUser(user as User),
  };
}

/** Maps an auth-js error to an IdentityError; network failures and 5xx become `503 identity_unavailable`. */
export function toIdentityError(error: AuthError): IdentityError {
  if (isAuthRetryableFetchError(error)) {
    return new IdentityError(503, 'identity_unavailable', 'The identity service is unavailable', [], { cause: error });
  }
  if (isAuthWeakPasswordError(error)) {
    return new IdentityError(error.status, 'weak_password', error.message, error.reasons, { cause: error });
  }
  if (isAuthSessionMissingError(error)) {
    return new IdentityError(401, 'session_not_found', 'The session has ended', [], { cause: error });
  }
  const status = error.status ?? 500;
  return new IdentityError(
    status,
    error.code ?? (status >= 500 ? 'unexpected_failure' : 'unknown'),
    error.message,
    [],
    {
      cause: error,
    },
  );
}

interface AuthResult {
  data: unknown;
  error: AuthError | null;
}

/** The data of a successful auth-js result; an error result throws as IdentityError. */
function check<R extends AuthResult>(result: R): Extract<R, { error: null }>['data'] {
  if (result.error) throw toIdentityError(result.error);
  return result.data;
}

/**
 * The server's only way to the identity service (embedded or hosted Supabase Auth), through
 * supabase-js. Every user operation gets a fresh client holding no session beyond the call; admin
 * calls share one service-role client. Failures are IdentityErrors.
 */
export class IdentityClient {
  private readonly admin: Auth['admin'];
  private readonly timeoutMs: number;
  /** Where supabase-js puts Supabase Auth under a project's URL. */
  private readonly authUrl: string;
  /** Every identity request carries the id and trace of the request it serves. */
  private readonly fetch: typeof fetch;
  /** Recovery codes (an extension of the embedded service). */
  readonly recoveryCodes: RecoveryCodesClient<IdentitySession>;

  constructor(private readonly options: IdentityClientOptions) {
    this.timeoutMs = options.timeoutMs ?? IDENTITY_TIMEOUT_MS;
    this.fetch = tracedFetch(options.fetch);
    this.authUrl = new URL('auth/v1', options.url.endsWith('/') ? options.url : `${options.url}/`).href;
    this.admin = this.client(options.serviceRoleKey, {}, () => performance.now() + this.timeoutMs).admin;
    this.recoveryCodes = new RecoveryCodesClient({
      ...options,
      fetch: this.fetch,
      authUrl: this.authUrl,
      timeoutMs: this.timeoutMs,
      enabled: options.recoveryCodes ?? false,
      toSession: fromTokenResponse,
      fail: (status, code, message, cause) => new IdentityError(status, code, message, [], { cause }),
    });
  }

  /**
   * A supabase-js client whose requests abort at the time `deadline` gives for each one (on
   * `performance.now()`'s clock) or at the deadline of the GraphQL operation they serve, whichever
   * comes first: one timer per request. (A signal per deadline joined with `AbortSignal.any` cost a
   * sign-in three signals, each timer firing seconds later.)
   */
  private client(key: string, headers: Record<string, string>, deadline: () => number): Auth {
    const timedFetch: typeof fetch = (input, init) => {
      const endsAt = Math.min(deadline(), operationDeadline() ?? Infinity);
      // AbortSignal.timeout takes whole milliseconds only (a fraction throws a RangeError).
      const timeout = AbortSignal.timeout(Math.max(0, Math.ceil(endsAt - performance.now())));
      const signal = init?.signal ? AbortSignal.any([timeout, init.signal]) : timeout;
      return this.fetch(input, { ...init, signal });
    };
    // What `createClient(url, key).auth` is, without the database, storage and realtime clients
    // createClient also builds: made afresh per call, they were a few percent of a sign-in's CPU.
    return new AuthClient({
      url: this.authUrl,
      headers: { Authorization: `Bearer ${key}`, apikey: key, ...headers },
      fetch: timedFetch,
      persistSession: false,
      autoRefreshToken: false,
      detectSessionInUrl: false,
    });
  }

  /**
   * A client for one user operation, whose requests together get one timeout (an email change is
   * two requests); with the caller's address it vouches for it with the service-role key.
   */
  private userAuth(caller: CallerInfo = {}): Auth {
    const headers: Record<string, string> = caller.clientIp
      ? { 'Sb-Forwarded-For': caller.clientIp, apikey: this.options.serviceRoleKey }
      : {};
    const endsAt = performance.now() + this.timeoutMs;
    return this.client(this.options.anonKey, headers, () => endsAt);
  }

  /** Creates an account; `session` is null while the address awaits confirmation. */
  async signUp(
    input: { email: string; password: string; data?: Record<string, unknown> },
    caller: CallerInfo = {},
  ): Promise<{ user: IdentityUser; session: IdentitySession | null }> {
    const data = check(
      await this.userAuth(caller).signUp({
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
    const data = check(await this.userAuth(caller).signInWithPassword(input));
    return toSession(data.session);
  }

  /** Exchanges a refresh token for a new session (the old refresh token is spent). */
  async refreshSession(refreshToken: string, caller: CallerInfo = {}): Promise<IdentitySession> {
    const data = check(await this.userAuth(caller).refreshSession({ refresh_token: refreshToken }));
    if (!data.session) throw new IdentityError(401, 'session_not_found', 'The session has ended');
    return toSession(data.session);
  }

  /** Ends the token's session (`local`), every session (`global`) or the others; an ended session is fine. */
  async signOut(accessToken: string, scope: 'global' | 'local' | 'others' = 'global'): Promise<void> {
    const { error } = await this.admin.signOut(accessToken, scope);
    if (!error || isAuthSessionMissingError(error) || [401, 403, 404].includes(error.status ?? 0)) return;
    throw toIdentityError(error);
  }

  /** The account of an access token, asked of the identity service (detects ended sessions). */
  async getUser(accessToken: string): Promise<IdentityUser> {
    return toUser(check(await this.userAuth().getUser(accessToken)).user);
  }

  /**
   * Changes the caller's own account: metadata (merged), password (other sessions end), or email
   * (confirmed through emailed links before it takes effect). A password or email change needs
   * `currentPassword` unless the session signed in minutes ago (or, for a password, is a reset's).
   */
  async updateUser(
    session: { accessToken: string; refreshToken?: string },
    { currentPassword, ...attributes }: UserChanges,
    caller: CallerInfo = {},
  ): Promise<IdentityUser> {
    const auth = this.userAuth(caller);
    if (session.refreshToken === undefined) {
      const { exp } = decodeJwt(session.accessToken);
      if (exp !== undefined && exp * 1000 <= Date.now()) {
        throw new IdentityError(401, 'session_expired', 'The access token has expired');
      }
    }
    check(
      await auth.setSession({
        access_token: session.accessToken,
        refresh_token: session.refreshToken ?? UNUSED_REFRESH_TOKEN,
      }),
    );
    const changes = currentPassword === undefined ? attributes : { ...attributes, current_password: currentPassword };
    return toUser(check(await auth.updateUser(changes, { emailRedirectTo: caller.redirectTo })).user);
  }

  /** A client signed in as `session`, for the calls supabase-js makes only with a session (MFA). */
  private async sessionAuth(session: { accessToken: string }, caller: CallerInfo = {}): Promise<Auth> {
    const auth = this.userAuth(caller);
    check(await auth.setSession({ access_token: session.accessToken, refresh_token: UNUSED_REFRESH_TOKEN }));
    return auth;
  }

  /** Enrolls a TOTP factor for the session's account (unverified until a code confirms it). */
  async enrollTotp(session: { accessToken: string }, friendlyName: string): Promise<TotpEnrollment> {
    const auth = await this.sessionAuth(session);
    const data = check(await auth.mfa.enroll({ factorType: 'totp', friendlyName }));
    // supabase-js hands the SVG over as a data URI; the API answers the document itself.
    const qrCodeSvg = data.totp.qr_code.replace(/^data:image\/svg\+xml;utf-8,/, '');
    return { factorId: data.id, secret: data.totp.secret, uri: data.totp.uri, qrCodeSvg };
  }

  /**
   * Challenges a factor and answers it with `code`: the factor becomes verified and the session
   * rises to aal2. Returns the new session (the old refresh token no longer works).
   */
  async verifyTotp(
    session: { accessToken: string },
    factorId: string,
    code: string,
    caller: CallerInfo = {},
  ): Promise<IdentitySession> {
    const auth = await this.sessionAuth(session, caller);
    const data = check(await auth.mfa.challengeAndVerify({ factorId, code }));
    return {
      accessToken: data.access_token,
      refreshToken: data.refresh_token,
      expiresAt: Math.floor(Date.now() / 1000) + data.expires_in,
      expiresIn: data.expires_in,
      aal: tokenAssurance(data.access_token),
      user: toUser(data.user),
    };
  }

  /** Removes a factor of the session's account (a verified one needs an aal2 session). */
  async unenrollFactor(session: { accessToken: string }, factorId: string): Promise<void> {
    const auth = await this.sessionAuth(session);
    check(await auth.mfa.unenroll({ factorId }));
  }

  /** Emails a password-reset link; answers the same whether or not the address has an account. */
  async resetPasswordForEmail(email: string, caller: CallerInfo = {}): Promise<void> {
    check(await this.userAuth(caller).resetPasswordForEmail(email, { redirectTo: caller.redirectTo }));
  }

  /**
   * Emails a sign-in link and 6-digit code to an existing account; no account is made for a new
   * address. The embedded service answers the same for every address; Supabase Auth answers an
   * unknown one with `otp_disabled`, which the caller must treat as success to say the same.
   */
  async signInWithOtp(email: string, caller: CallerInfo = {}): Promise<void> {
    check(
      await this.userAuth(caller).signInWithOtp({
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
    const auth = this.userAuth(caller);
    const data = check(
      await ('tokenHash' in params
        ? auth.verifyOtp({ type: params.type, token_hash: params.tokenHash })
        : auth.verifyOtp({ type: params.type, email: params.email, token: params.token })),
    );
    return data.session ? toSession(data.session) : null;
  }

  async getUserById(id: string): Promise<IdentityUser> {
    return toUser(check(await this.admin.getUserById(id)).user);
  }

  /** One page of accounts, newest first, with the total count. */
  async listUsers(page = 1, perPage = 50): Promise<{ users: IdentityUser[]; total: number; lastPage: number }> {
    const result = await this.admin.listUsers({ page, perPage });
    if (result.error) throw toIdentityError(result.error);
    return { users: result.data.users.map(toUser), total: result.data.total, lastPage: result.data.lastPage };
  }

  /**
   * Changes an account as an administrator. `appMetadata` is merged (null deletes a key) and
   * appears in every access token issued afterwards; a new password ends every session.
   */
  async updateUserById(
    id: string,
    attributes: {
      email?: string;
      password?: string;
      emailConfirm?: boolean;
      userMetadata?: Record<string, unknown>;
      appMetadata?: Record<string, unknown>;
      banDuration?: string;
    },
  ): Promise<IdentityUser> {
    const data = check(
      await this.admin.updateUserById(id, {
        email: attributes.email,
        password: attributes.password,
        email_confirm: attributes.emailConfirm,
        user_metadata: attributes.userMetadata,
        app_metadata: attributes.appMetadata,
        ban_duration: attributes.banDuration,
      }),
    );
    return toUser(data.user);
  }

  /** Deletes one of an account's second factors (a lost phone); the sessions it raised fall to aal1. */
  async deleteFactorById(userId: string, factorId: string): Promise<void> {
    const { error } = await this.admin.mfa.deleteFactor({ userId, id: factorId });
    if (error) throw toIdentityError(error);
  }

  /** Deletes an account with its sessions. */
  async deleteUser(id: string): Promise<void> {
    check(await this.admin.deleteUser(id));
  }
}
