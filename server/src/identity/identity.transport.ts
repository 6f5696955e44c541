import { AuthClient } from '@supabase/auth-js';
import { tracedFetch } from '../http/request-trace.js';
import { operationDeadline } from './deadline.js';
import { check } from './identity.mappers.js';
import type { CallerInfo } from './identity.types.js';

/** supabase-js's auth client; the rest of a Supabase client (database, storage, realtime) is never used. */
export type Auth = InstanceType<typeof AuthClient>;

/**
 * How long one identity operation (all the requests of one user call, or one admin request) may
 * take before it fails closed: under 5 s, so that a login or sign-up answers within 5 s with the
 * time this server takes around it.
 */
const IDENTITY_TIMEOUT_MS = 4000;
/** `setSession` keeps the refresh token without using it while the access token is still valid. */
export const UNUSED_REFRESH_TOKEN = 'not-refreshable';

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

/**
 * The supabase-js clients every part of IdentityClient calls through: a fresh one per user
 * operation, holding no session beyond the call, and one shared service-role client for admin calls.
 */
export class IdentityTransport {
  readonly admin: Auth['admin'];
  readonly timeoutMs: number;
  /** Where supabase-js puts Supabase Auth under a project's URL. */
  readonly authUrl: string;
  /** Every identity request carries the id and trace of the request it serves. */
  readonly fetch: typeof fetch;

  constructor(readonly options: IdentityClientOptions) {
    this.timeoutMs = options.timeoutMs ?? IDENTITY_TIMEOUT_MS;
    this.fetch = tracedFetch(options.fetch);
    this.authUrl = new URL('auth/v1', options.url.endsWith('/') ? options.url : `${options.url}/`).href;
    this.admin = this.client(options.serviceRoleKey, {}, () =>
      this.timeoutSignal(performance.now() + this.timeoutMs),
    ).admin;
  }

  /**
   * A signal that aborts at `endsAt` for this request (on `performance.now()`'s clock) or at the
   * deadline of the GraphQL operation it serves, whichever comes first: one timer per request. (A
   * signal per deadline joined with `AbortSignal.any` cost a sign-in three signals.)
   */
  private timeoutSignal(endsAt: number): AbortSignal {
    const first = Math.min(endsAt, operationDeadline() ?? Infinity);
    // AbortSignal.timeout takes whole milliseconds only (a fraction throws a RangeError).
    return AbortSignal.timeout(Math.max(0, Math.ceil(first - performance.now())));
  }

  /** A supabase-js client whose requests abort when the signal `signalFor` gives for each one does. */
  private client(key: string, headers: Record<string, string>, signalFor: () => AbortSignal): Auth {
    const timedFetch: typeof fetch = (input, init) => {
      const timeout = signalFor();
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
  userAuth(caller: CallerInfo = {}): Auth {
    const headers = this.callerHeaders(caller);
    const endsAt = performance.now() + this.timeoutMs;
    return this.client(this.options.anonKey, headers, () => this.timeoutSignal(endsAt));
  }

  /**
   * Runs one user operation (`work`, given a client as `userAuth` makes) under one timer, cleared
   * when it ends. `AbortSignal.timeout`'s timer fires even after its request is done, once the
   * signal has lived long enough to escape the young generation (most do, under load): each fired
   * timer made a `DOMException` and aborted the signal, ~1% of a sign-in's main thread.
   */
  async userCall<T>(caller: CallerInfo, work: (auth: Auth) => Promise<T>): Promise<T> {
    const headers = this.callerHeaders(caller);
    const endsAt = Math.min(performance.now() + this.timeoutMs, operationDeadline() ?? Infinity);
    const controller = new AbortController();
    const timer = setTimeout(
      () => {
        controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
      },
      Math.max(0, Math.ceil(endsAt - performance.now())),
    );
    // As AbortSignal.timeout's: a pending identity call does not keep the process alive by itself.
    timer.unref();
    try {
      return await work(this.client(this.options.anonKey, headers, () => controller.signal));
    } finally {
      clearTimeout(timer);
    }
  }

  /** With the caller's address, vouched for with the service-role key. */
  private callerHeaders(caller: CallerInfo): Record<string, string> {
    return caller.clientIp ? { 'Sb-Forwarded-For': caller.clientIp, apikey: this.options.serviceRoleKey } : {};
  }

  /** A client signed in as `session`, for the calls supabase-js makes only with a session (MFA). */
  async sessionAuth(session: { accessToken: string }, caller: CallerInfo = {}): Promise<Auth> {
    const auth = this.userAuth(caller);
    check(await auth.setSession({ access_token: session.accessToken, refresh_token: UNUSED_REFRESH_TOKEN }));
    return auth;
  }
}
