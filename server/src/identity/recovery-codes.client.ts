import { operationDeadline } from './deadline.js';

/** What RecoveryCodesClient needs of IdentityClient (passed in, so that neither module imports the other). */
export interface RecoveryCodesOptions<Session> {
  /** The identity service's base (`…/auth/v1`). */
  authUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  timeoutMs: number;
  fetch?: typeof fetch;
  /** Whether the service has the extension (the embedded one; hosted Supabase Auth has not). */
  enabled: boolean;
  /** A token response as the caller's session; throws on a body that is not one. */
  toSession: (body: Record<string, unknown>) => Session;
  /** The caller's error for a failure (IdentityError). */
  fail: (status: number, code: string, message: string, cause?: unknown) => Error;
}

/**
 * Recovery codes through the embedded identity service's extension routes (`/factors/recovery`),
 * which Supabase Auth and supabase-js do not have: plain HTTP with the member's access token.
 * Without the extension (hosted Supabase Auth) every call fails with `recovery_codes_unavailable`.
 */
export class RecoveryCodesClient<Session> {
  constructor(private readonly options: RecoveryCodesOptions<Session>) {}

  /** A new set of ten codes, shown once; the earlier set stops working. Needs an aal2 session. */
  async generate(session: { accessToken: string }): Promise<string[]> {
    const body = await this.post('factors/recovery', session, {});
    if (!Array.isArray(body.codes)) {
      throw this.options.fail(502, 'identity_bad_response', 'The identity service answered no codes');
    }
    return body.codes.map(String);
  }

  /** Spends one code: answers the session raised to aal2 (the old refresh token stops working). */
  async verify(session: { accessToken: string }, code: string, caller: { clientIp?: string } = {}): Promise<Session> {
    return this.options.toSession(await this.post('factors/recovery/verify', session, { code }, caller));
  }

  private async post(
    path: string,
    session: { accessToken: string },
    body: Record<string, unknown>,
    caller: { clientIp?: string } = {},
  ): Promise<Record<string, unknown>> {
    const { options } = this;
    if (!options.enabled) {
      throw options.fail(
        501,
        'recovery_codes_unavailable',
        'Recovery codes need the embedded identity service; hosted Supabase Auth has none.',
      );
    }
    const endsAt = Math.min(performance.now() + options.timeoutMs, operationDeadline() ?? Infinity);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${session.accessToken}`,
      apikey: options.anonKey,
    };
    // As supabase-js calls from this server do: the member's address, vouched for with the service key.
    if (caller.clientIp)
      Object.assign(headers, { 'Sb-Forwarded-For': caller.clientIp, apikey: options.serviceRoleKey });
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(new URL(path, `${options.authUrl}/`), {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(Math.max(0, Math.ceil(endsAt - performance.now()))),
      });
    } catch (error) {
      throw options.fail(503, 'identity_unavailable', 'The identity service is unavailable', error);
    }
    const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (response.ok) return json;
    if (response.status >= 500) throw options.fail(503, 'identity_unavailable', 'The identity service is unavailable');
    const code = typeof json.error_code === 'string' ? json.error_code : 'unknown';
    const message = typeof json.msg === 'string' ? json.msg : `The identity service answered ${response.status}`;
    throw options.fail(response.status, code, message);
  }
}
