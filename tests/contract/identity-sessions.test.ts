import { AuthApiError, AuthSessionMissingError } from '@supabase/supabase-js';
import type { Session } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { GOOD_PASSWORD, anonClient, decodeClaims, identityFetch, uniqueEmail } from '../support/identity.js';

let api: TestApp;
/** Rotation with no reuse interval, so that any replay is outside it. */
let strict: TestApp;
beforeAll(async () => {
  [api, strict] = await Promise.all([startTestApp(), startTestApp({ AUTH_REFRESH_TOKEN_REUSE_INTERVAL: '0' })]);
});
afterAll(async () => {
  await Promise.all([api.close(), strict.close()]);
});

async function signedUp(
  app: TestApp,
  data: Record<string, unknown> = {},
): Promise<{ email: string; session: Session }> {
  const email = uniqueEmail();
  const { data: result, error } = await anonClient(app).auth.signUp({
    email,
    password: GOOD_PASSWORD,
    options: { data },
  });
  if (error || !result.session) throw error ?? new Error('no session');
  return { email, session: result.session };
}

async function signIn(app: TestApp, email: string, password = GOOD_PASSWORD): Promise<Session> {
  const { data, error } = await anonClient(app).auth.signInWithPassword({ email, password });
  if (error) throw error;
  return data.session;
}

describe('refresh tokens', () => {
  it('§2.3 issues a new refresh token on every refresh, in the same session', async () => {
    const { session } = await signedUp(api);
    const client = anonClient(api);
    const first = await client.auth.refreshSession({ refresh_token: session.refresh_token });
    const second = await client.auth.refreshSession({ refresh_token: first.data.session?.refresh_token ?? '' });
    const tokens = [session.refresh_token, first.data.session?.refresh_token, second.data.session?.refresh_token];
    expect(new Set(tokens).size).toBe(3);
    expect(second.data.user?.id).toBe(session.user.id);
    const claims = decodeClaims(second.data.session?.access_token ?? '');
    expect(claims.session_id).toBe(decodeClaims(session.access_token).session_id);
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);
  });

  it('§2.3 lets a rotated token be used again within the reuse interval', async () => {
    const { session } = await signedUp(api);
    const first = await anonClient(api).auth.refreshSession({ refresh_token: session.refresh_token });
    expect(first.error).toBeNull();
    const replay = await anonClient(api).auth.refreshSession({ refresh_token: session.refresh_token });
    expect(replay.error).toBeNull();
    expect(replay.data.session?.refresh_token).not.toBe(first.data.session?.refresh_token);
  });

  it('§2.3 revokes the whole session when a rotated token is replayed outside the reuse interval', async () => {
    const { session } = await signedUp(strict);
    const rotated = await anonClient(strict).auth.refreshSession({ refresh_token: session.refresh_token });
    const current = rotated.data.session;
    if (!current) throw new Error('no refreshed session');
    await new Promise((resolve) => setTimeout(resolve, 5));

    const replay = await anonClient(strict).auth.refreshSession({ refresh_token: session.refresh_token });
    expect(replay.error).toBeInstanceOf(AuthApiError);
    expect(replay.error).toMatchObject({
      status: 400,
      code: 'refresh_token_already_used',
      message: 'Invalid Refresh Token: Already Used',
    });

    const family = await anonClient(strict).auth.refreshSession({ refresh_token: current.refresh_token });
    expect(family.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
    const user = await anonClient(strict).auth.getUser(current.access_token);
    expect(user.error).toBeInstanceOf(AuthSessionMissingError);
  });

  it('§2.3 answers an unknown token with refresh_token_not_found and a malformed one with validation_failed', async () => {
    const unknown = await anonClient(api).auth.refreshSession({ refresh_token: 'abcdefghijkl' });
    expect(unknown.error).toMatchObject({
      status: 400,
      code: 'refresh_token_not_found',
      message: 'Invalid Refresh Token: Refresh Token Not Found',
    });
    const malformed = await anonClient(api).auth.refreshSession({ refresh_token: 'short' });
    expect(malformed.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Refresh token is not valid',
    });
  });
});

describe('the signed-in user', () => {
  it('§2.4 §3.2 answers GET /user with the bare User object', async () => {
    const { email, session } = await signedUp(api);
    const response = await identityFetch(api, '/user', { token: session.access_token });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: session.user.id,
      email,
      phone: '',
      aud: 'authenticated',
      role: 'authenticated',
    });
    expect(response.body).not.toHaveProperty('new_email');
    expect(response.body).not.toHaveProperty('recovery_sent_at');
    expect(response.headers.get('x-supabase-api-version')).toBeNull();
  });

  it('§2.4 answers a request without a bearer token with no_authorization and a forged one with bad_jwt', async () => {
    const missing = await identityFetch(api, '/user');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ code: 'no_authorization', message: 'This endpoint requires a valid Bearer token' });
    const { session } = await signedUp(api);
    const [header, payload] = session.access_token.split('.');
    const forged = await identityFetch(api, '/user', { token: `${header ?? ''}.${payload ?? ''}.AAAA` });
    expect(forged.status).toBe(403);
    expect(forged.body).toMatchObject({ code: 'bad_jwt', message: expect.stringMatching(/^invalid JWT/) });
  });

  it('§2.4 merges user metadata shallowly, null deleting a key', async () => {
    const { session } = await signedUp(api, { first: 'Lydia', city: 'Thyatira' });
    const client = anonClient(api);
    await client.auth.setSession(session);
    const { data, error } = await client.auth.updateUser({ data: { city: null, trade: 'purple' } });
    expect(error).toBeNull();
    expect(data.user?.user_metadata).toEqual({ first: 'Lydia', trade: 'purple', email_verified: true });
  });

  it('§2.4 refuses app_metadata from the user with not_admin', async () => {
    const { session } = await signedUp(api);
    const response = await identityFetch(api, '/user', {
      method: 'PUT',
      token: session.access_token,
      body: { app_metadata: { stripeRole: 'plus' } },
    });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ code: 'not_admin' });
  });

  it('§2.4 ends the other sessions when the password changes, and keeps this one', async () => {
    const { email, session } = await signedUp(api);
    const other = await signIn(api, email);
    const client = anonClient(api);
    await client.auth.setSession(session);
    const { error } = await client.auth.updateUser({ password: 'a brand new passphrase' });
    expect(error).toBeNull();

    const otherUser = await anonClient(api).auth.getUser(other.access_token);
    expect(otherUser.error).toBeInstanceOf(AuthSessionMissingError);
    const otherRefresh = await anonClient(api).auth.refreshSession({ refresh_token: other.refresh_token });
    expect(otherRefresh.error).toMatchObject({ code: 'refresh_token_not_found' });
    expect((await anonClient(api).auth.getUser(session.access_token)).error).toBeNull();
    expect((await anonClient(api).auth.signInWithPassword({ email, password: GOOD_PASSWORD })).error).toMatchObject({
      code: 'invalid_credentials',
    });
    await expect(signIn(api, email, 'a brand new passphrase')).resolves.toMatchObject({ token_type: 'bearer' });
  });

  it('§2.4 refuses the same password with same_password', async () => {
    const { session } = await signedUp(api);
    const client = anonClient(api);
    await client.auth.setSession(session);
    const { error } = await client.auth.updateUser({ password: GOOD_PASSWORD });
    expect(error).toMatchObject({
      status: 422,
      code: 'same_password',
      message: 'New password should be different from the old password.',
    });
  });
});

describe('sign-out', () => {
  it('§2.7 local ends this session only', async () => {
    const { email, session } = await signedUp(api);
    const other = await signIn(api, email);
    const client = anonClient(api);
    await client.auth.setSession(session);
    expect((await client.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect((await anonClient(api).auth.getUser(session.access_token)).error).toBeInstanceOf(AuthSessionMissingError);
    expect((await anonClient(api).auth.getUser(other.access_token)).error).toBeNull();
  });

  it('§2.7 others ends every session but this one', async () => {
    const { email, session } = await signedUp(api);
    const other = await signIn(api, email);
    const client = anonClient(api);
    await client.auth.setSession(session);
    expect((await client.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect((await anonClient(api).auth.getUser(session.access_token)).error).toBeNull();
    expect((await anonClient(api).auth.getUser(other.access_token)).error).toBeInstanceOf(AuthSessionMissingError);
  });

  it('§2.7 global ends every session and answers 204', async () => {
    const { email, session } = await signedUp(api);
    const other = await signIn(api, email);
    const response = await identityFetch(api, '/logout?scope=global', { method: 'POST', token: session.access_token });
    expect(response.status).toBe(204);
    for (const token of [session.access_token, other.access_token]) {
      const user = await identityFetch(api, '/user', { token });
      expect(user.status).toBe(403);
      expect(user.body).toEqual({
        code: 'session_not_found',
        message: 'Session from session_id claim in JWT does not exist',
      });
    }
    const refresh = await anonClient(api).auth.refreshSession({ refresh_token: other.refresh_token });
    expect(refresh.error).toMatchObject({ code: 'refresh_token_not_found' });
  });

  it('§2.7 refuses an unknown scope with validation_failed', async () => {
    const { session } = await signedUp(api);
    const response = await identityFetch(api, '/logout?scope=everywhere', {
      method: 'POST',
      token: session.access_token,
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'validation_failed' });
  });
});
