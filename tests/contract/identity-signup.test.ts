import { AuthApiError, AuthWeakPasswordError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import {
  GOOD_PASSWORD,
  anonClient,
  decodeClaims,
  decodeHeader,
  identityFetch,
  serviceClient,
  uniqueEmail,
} from '../support/identity.js';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => {
  await api.close();
});

describe('sign-up with autoconfirm on (the embedded default)', () => {
  it('§2.1 §3.1 answers a session and a confirmed user', async () => {
    const email = uniqueEmail();
    const { data, error } = await anonClient(api).auth.signUp({
      email,
      password: GOOD_PASSWORD,
      options: { data: { first: 'Ruth' } },
    });
    expect(error).toBeNull();
    expect(data.session).toMatchObject({
      token_type: 'bearer',
      expires_in: expect.any(Number),
      refresh_token: expect.stringMatching(/^[a-z0-9]{12}$/),
    });
    expect(data.user).toMatchObject({
      email,
      phone: '',
      role: 'authenticated',
      aud: 'authenticated',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { first: 'Ruth', email_verified: true },
      email_confirmed_at: expect.any(String),
      is_anonymous: false,
    });
    expect(data.user?.identities).toEqual([
      expect.objectContaining({
        provider: 'email',
        id: data.user?.id,
        user_id: data.user?.id,
        identity_id: expect.any(String),
      }),
    ]);
  });

  it('§5.1 issues an access token with every claim of the contract', async () => {
    const email = uniqueEmail();
    const { data } = await anonClient(api).auth.signUp({ email, password: GOOD_PASSWORD });
    const token = data.session?.access_token ?? '';
    expect(decodeHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = decodeClaims(token);
    expect(claims).toMatchObject({
      iss: `${api.url}/auth/v1`,
      sub: data.user?.id,
      aud: 'authenticated',
      email,
      phone: '',
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method: 'password', timestamp: expect.any(Number) }],
      session_id: expect.any(String),
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { email_verified: true },
    });
    expect(claims.exp).toBe((claims.iat as number) + 3600);
    expect(claims).not.toHaveProperty('jti');
  });

  it('§2.1 §6.4 rejects a second sign-up with the same address as user_already_exists', async () => {
    const email = uniqueEmail();
    await anonClient(api).auth.signUp({ email, password: GOOD_PASSWORD });
    const { data, error } = await anonClient(api).auth.signUp({ email: email.toUpperCase(), password: GOOD_PASSWORD });
    expect(error).toBeInstanceOf(AuthApiError);
    expect(error).toMatchObject({ status: 422, code: 'user_already_exists', message: 'User already registered' });
    expect(data).toEqual({ user: null, session: null });
  });

  it('refuses a second sign-up for an unconfirmed address too, without confirming it (deviation from §2.1)', async () => {
    // An account made while confirmation was on and never confirmed, then autoconfirm switched on.
    const email = uniqueEmail('unconfirmed');
    const { error: created } = await serviceClient(api).auth.admin.createUser({ email, password: GOOD_PASSWORD });
    expect(created).toBeNull();

    const { data, error } = await anonClient(api).auth.signUp({ email, password: 'someone else entirely 7' });
    expect(error).toMatchObject({ status: 422, code: 'user_already_exists', message: 'User already registered' });
    expect(data).toEqual({ user: null, session: null });
    const stranger = await anonClient(api).auth.signInWithPassword({ email, password: 'someone else entirely 7' });
    expect(stranger.error).toMatchObject({ code: 'invalid_credentials' });
    const owner = await anonClient(api).auth.signInWithPassword({ email, password: GOOD_PASSWORD });
    expect(owner.error).toMatchObject({ code: 'email_not_confirmed' });
  });

  it('§2.1 §6.1 rejects a 7-character password as weak_password (length)', async () => {
    const { error } = await anonClient(api).auth.signUp({ email: uniqueEmail(), password: 'abcdefg' });
    expect(error).toBeInstanceOf(AuthWeakPasswordError);
    expect(error).toMatchObject({
      status: 422,
      code: 'weak_password',
      reasons: ['length'],
      message: 'Password should be at least 8 characters.',
    });
  });

  it('§6.1 rejects a password on the common-passwords blocklist (pwned)', async () => {
    const { error } = await anonClient(api).auth.signUp({ email: uniqueEmail(), password: 'Password1' });
    expect(error).toBeInstanceOf(AuthWeakPasswordError);
    expect(error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['pwned'] });
  });

  it('§6.1 rejects a password over 72 bytes with validation_failed and a clear message', async () => {
    const { error } = await anonClient(api).auth.signUp({ email: uniqueEmail(), password: 'é'.repeat(37) });
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: expect.stringMatching(/^Password cannot be longer than 72 characters/),
    });
  });

  it('§6.1 accepts a 64-character and a Unicode passphrase', async () => {
    for (const password of ['a'.repeat(30) + 'b'.repeat(34), 'Дом на скале стоит']) {
      const { error } = await anonClient(api).auth.signUp({ email: uniqueEmail(), password });
      expect(error).toBeNull();
    }
  });

  it('§2.1 rejects a malformed address with validation_failed', async () => {
    const { error } = await anonClient(api).auth.signUp({ email: 'not-an-address', password: GOOD_PASSWORD });
    expect(error).toBeInstanceOf(AuthApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Unable to validate email address: invalid format',
    });
  });

  it('§2.1 answers anonymous_provider_disabled without an address', async () => {
    const response = await identityFetch(api, '/signup', { body: { password: GOOD_PASSWORD } });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ code: 'anonymous_provider_disabled', message: 'Anonymous sign-ins are disabled' });
  });
});

describe('sign-in with a password', () => {
  it('§2.2 signs in and records last_sign_in_at', async () => {
    const email = uniqueEmail();
    await anonClient(api).auth.signUp({ email, password: GOOD_PASSWORD });
    const { data, error } = await anonClient(api).auth.signInWithPassword({ email, password: GOOD_PASSWORD });
    expect(error).toBeNull();
    expect(data.session?.access_token).toEqual(expect.any(String));
    expect(data.user?.last_sign_in_at).toEqual(expect.any(String));
  });

  it('§2.2 answers invalid_credentials for a wrong password and an unknown address alike', async () => {
    const email = uniqueEmail();
    await anonClient(api).auth.signUp({ email, password: GOOD_PASSWORD });
    const wrong = await anonClient(api).auth.signInWithPassword({ email, password: 'not the password' });
    const unknown = await anonClient(api).auth.signInWithPassword({ email: uniqueEmail(), password: GOOD_PASSWORD });
    for (const { error } of [wrong, unknown]) {
      expect(error).toBeInstanceOf(AuthApiError);
      expect(error).toMatchObject({ status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' });
    }
  });

  it('§2.2 answers an unsupported grant as invalid_credentials', async () => {
    const response = await identityFetch(api, '/token?grant_type=client_credentials', { body: {} });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'invalid_credentials', message: 'unsupported_grant_type' });
  });
});

describe('error responses', () => {
  it('§1.2 echoes X-Supabase-Api-Version and answers {code, message} when the request names the version', async () => {
    const response = await identityFetch(api, '/token?grant_type=password', {
      body: { email: uniqueEmail(), password: 'x' },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(response.headers.get('x-sb-error-code')).toBe('invalid_credentials');
    expect(response.body).toEqual({ code: 'invalid_credentials', message: 'Invalid login credentials' });
  });

  it('§1.2 answers the legacy shape without the version header, and no echo', async () => {
    const response = await identityFetch(api, '/token?grant_type=password', {
      body: { email: uniqueEmail(), password: 'x' },
      apiVersion: false,
    });
    expect(response.headers.get('x-supabase-api-version')).toBeNull();
    expect(response.body).toEqual({ code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' });
  });

  it('§2 answers malformed JSON with bad_json', async () => {
    const response = await fetch(`${api.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
      body: '{"email": ',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'bad_json',
      message: expect.stringMatching(/^Could not parse request body as JSON/),
    });
  });

  it('§2.3 answers an empty refresh token with the OAuth error shape', async () => {
    const response = await identityFetch(api, '/token?grant_type=refresh_token', { body: { refresh_token: '' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'invalid_request', error_description: 'refresh_token required' });
  });
});
