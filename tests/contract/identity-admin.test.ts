import { AuthApiError } from '@supabase/supabase-js';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import {
  GOOD_PASSWORD,
  anonClient,
  decodeClaims,
  identityFetch,
  identityKeys,
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

describe('admin API', () => {
  it('§2.8 creates a confirmed user with app_metadata merged over the provider', async () => {
    const email = uniqueEmail('admin');
    const { data, error } = await serviceClient(api).auth.admin.createUser({
      email,
      password: GOOD_PASSWORD,
      email_confirm: true,
      app_metadata: { plan: 'free' },
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      email,
      email_confirmed_at: expect.any(String),
      app_metadata: { provider: 'email', providers: ['email'], plan: 'free' },
    });
    expect((await anonClient(api).auth.signInWithPassword({ email, password: GOOD_PASSWORD })).error).toBeNull();
  });

  it('§2.8 creates an unconfirmed user who cannot sign in yet (email_not_confirmed)', async () => {
    const email = uniqueEmail('pending');
    const { data } = await serviceClient(api).auth.admin.createUser({ email, password: GOOD_PASSWORD });
    expect(data.user).not.toHaveProperty('email_confirmed_at');
    const { error } = await anonClient(api).auth.signInWithPassword({ email, password: GOOD_PASSWORD });
    expect(error).toMatchObject({ status: 400, code: 'email_not_confirmed', message: 'Email not confirmed' });
  });

  it('§2.8 refuses a duplicate address with email_exists', async () => {
    const email = uniqueEmail();
    await serviceClient(api).auth.admin.createUser({ email, password: GOOD_PASSWORD });
    const { error } = await serviceClient(api).auth.admin.createUser({ email, password: GOOD_PASSWORD });
    expect(error).toBeInstanceOf(AuthApiError);
    expect(error).toMatchObject({ status: 422, code: 'email_exists' });
  });

  it('§2.8 imports a bcrypt hash from a Supabase export, which then signs in', async () => {
    const email = uniqueEmail('imported');
    const passwordHash = await bcrypt.hash('an imported passphrase', 10);
    const response = await identityFetch(api, '/admin/users', {
      token: identityKeys(api).serviceRoleKey,
      body: { email, password_hash: passwordHash, email_confirm: true },
    });
    expect(response.status).toBe(200);
    for (let attempt = 0; attempt < 2; attempt++) {
      const { error } = await anonClient(api).auth.signInWithPassword({ email, password: 'an imported passphrase' });
      expect(error).toBeNull();
    }
  });

  it('§2.8 lists users newest first with Link and X-Total-Count', async () => {
    for (let index = 0; index < 3; index++) {
      await serviceClient(api).auth.admin.createUser({ email: uniqueEmail('listed'), password: GOOD_PASSWORD });
    }
    const response = await identityFetch(api, '/admin/users?page=1&per_page=2', {
      token: identityKeys(api).serviceRoleKey,
    });
    const total = Number(response.headers.get('x-total-count'));
    expect(total).toBeGreaterThanOrEqual(3);
    const lastPage = Math.ceil(total / 2);
    expect(response.headers.get('link')).toBe(
      `</auth/v1/admin/users?page=2&per_page=2>; rel="next", </auth/v1/admin/users?page=${lastPage}&per_page=2>; rel="last"`,
    );
    const users = response.body.users as { created_at: string }[];
    expect(users).toHaveLength(2);
    expect((users[0]?.created_at ?? '') >= (users[1]?.created_at ?? '')).toBe(true);
    expect(response.body.aud).toBe('authenticated');

    const { data, error } = await serviceClient(api).auth.admin.listUsers({ page: 1, perPage: 2 });
    expect(error).toBeNull();
    expect(data).toMatchObject({ nextPage: 2, total, aud: 'authenticated' });
    expect(data.users).toHaveLength(2);
  });

  it('§2.8 refuses negative pagination with validation_failed', async () => {
    const { error } = await serviceClient(api).auth.admin.listUsers({ page: -1 });
    expect(error).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('§2.8 §5.3 puts app_metadata written by an admin into the next access token', async () => {
    const email = uniqueEmail('plus');
    const { data: created } = await anonClient(api).auth.signUp({ email, password: GOOD_PASSWORD });
    const id = created.user?.id ?? '';
    const before = decodeClaims(created.session?.access_token ?? '');
    const { data, error } = await serviceClient(api).auth.admin.updateUserById(id, {
      app_metadata: { stripeRole: 'plus' },
    });
    expect(error).toBeNull();
    expect(data.user?.app_metadata).toMatchObject({ provider: 'email', stripeRole: 'plus' });

    expect((before.app_metadata as Record<string, unknown>).stripeRole).toBeUndefined();
    const refreshed = await anonClient(api).auth.refreshSession({
      refresh_token: created.session?.refresh_token ?? '',
    });
    expect(decodeClaims(refreshed.data.session?.access_token ?? '').app_metadata).toMatchObject({ stripeRole: 'plus' });
    const signedIn = await anonClient(api).auth.signInWithPassword({ email, password: GOOD_PASSWORD });
    expect(decodeClaims(signedIn.data.session?.access_token ?? '').app_metadata).toMatchObject({ stripeRole: 'plus' });
  });

  it('§2.8 gets a user by id, and answers user_not_found / a non-UUID as the contract says', async () => {
    const { data: created } = await serviceClient(api).auth.admin.createUser({
      email: uniqueEmail(),
      password: GOOD_PASSWORD,
    });
    const id = created.user?.id ?? '';
    const { data } = await serviceClient(api).auth.admin.getUserById(id);
    expect(data.user?.id).toBe(id);
    const missing = await serviceClient(api).auth.admin.getUserById('4b1d2f0e-0000-4000-8000-000000000000');
    expect(missing.error).toMatchObject({ status: 404, code: 'user_not_found', message: 'User not found' });
    const malformed = await identityFetch(api, '/admin/users/not-a-uuid', { token: identityKeys(api).serviceRoleKey });
    expect(malformed.status).toBe(404);
    expect(malformed.body).toEqual({ code: 'validation_failed', message: 'user_id must be an UUID' });
  });

  it('§2.8 deletes a user, whose sessions end with it', async () => {
    const email = uniqueEmail('gone');
    const { data: created } = await anonClient(api).auth.signUp({ email, password: GOOD_PASSWORD });
    const id = created.user?.id ?? '';
    const { error } = await serviceClient(api).auth.admin.deleteUser(id);
    expect(error).toBeNull();
    expect((await serviceClient(api).auth.admin.getUserById(id)).error).toMatchObject({ code: 'user_not_found' });
    const user = await identityFetch(api, '/user', { token: created.session?.access_token ?? '' });
    expect(user.status).toBe(403);
    expect(user.body).toMatchObject({ code: 'user_not_found' });
  });

  it('§2.8 changing a password as admin ends every session', async () => {
    const { data: created } = await anonClient(api).auth.signUp({ email: uniqueEmail(), password: GOOD_PASSWORD });
    await serviceClient(api).auth.admin.updateUserById(created.user?.id ?? '', {
      password: 'an admin chosen passphrase',
    });
    const user = await identityFetch(api, '/user', { token: created.session?.access_token ?? '' });
    expect(user.body).toMatchObject({ code: 'session_not_found' });
  });

  it('§2.8 refuses the anon key with not_admin and a missing token with no_authorization', async () => {
    const anon = await anonClient(api).auth.admin.listUsers();
    expect(anon.error).toMatchObject({ status: 403, code: 'not_admin', message: 'User not allowed' });
    const missing = await identityFetch(api, '/admin/users');
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ code: 'no_authorization' });
  });

  it('§2.8 generate_link returns the link, code and hashed token without sending mail', async () => {
    const email = uniqueEmail('linked');
    await serviceClient(api).auth.admin.createUser({ email, password: GOOD_PASSWORD, email_confirm: true });
    const { data, error } = await serviceClient(api).auth.admin.generateLink({ type: 'recovery', email });
    expect(error).toBeNull();
    expect(data.properties).toMatchObject({
      email_otp: expect.stringMatching(/^\d{6}$/),
      hashed_token: expect.stringMatching(/^[0-9a-f]{56}$/),
      verification_type: 'recovery',
      action_link: expect.stringContaining('/auth/v1/verify?token='),
    });
    const verified = await anonClient(api).auth.verifyOtp({
      type: 'recovery',
      token_hash: data.properties?.hashed_token ?? '',
    });
    expect(verified.error).toBeNull();
    expect(decodeClaims(verified.data.session?.access_token ?? '').amr).toEqual([
      { method: 'otp', timestamp: expect.any(Number) },
    ]);
    const missing = await serviceClient(api).auth.admin.generateLink({ type: 'recovery', email: uniqueEmail() });
    expect(missing.error).toMatchObject({ status: 404, code: 'user_not_found' });
  });
});

describe('X-JWT-AUD', () => {
  it('refuses another audience on a public sign-up, so no one can hide an address from the admin listing (deviation)', async () => {
    const email = uniqueEmail('victim');
    const signup = await identityFetch(api, '/signup', {
      body: { email, password: GOOD_PASSWORD },
      headers: { 'x-jwt-aud': 'hidden' },
    });
    expect(signup.status).toBe(403);
    expect(signup.body).toMatchObject({ code: 'not_admin' });
    // The address is still free for its owner, in the audience the admin API lists.
    const owner = await anonClient(api).auth.signUp({ email, password: GOOD_PASSWORD });
    expect(owner.error).toBeNull();
    expect(decodeClaims(owner.data.session?.access_token ?? '').aud).toBe('authenticated');
  });

  it('accepts the default audience named explicitly on a public endpoint', async () => {
    const signup = await identityFetch(api, '/signup', {
      body: { email: uniqueEmail(), password: GOOD_PASSWORD },
      headers: { 'x-jwt-aud': 'authenticated' },
    });
    expect(signup.status).toBe(200);
  });

  it('§2.8 is believed from an admin, who creates and lists users of another audience', async () => {
    const email = uniqueEmail('other-aud');
    const { serviceRoleKey } = identityKeys(api);
    const created = await identityFetch(api, '/admin/users', {
      body: { email, password: GOOD_PASSWORD, email_confirm: true },
      token: serviceRoleKey,
      headers: { 'x-jwt-aud': 'partner' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ email, aud: 'partner' });
    const listed = await identityFetch(api, '/admin/users?page=1&per_page=50', {
      token: serviceRoleKey,
      headers: { 'x-jwt-aud': 'partner' },
    });
    expect((listed.body.users as { email: string }[]).map((user) => user.email)).toContain(email);
  });
});

describe('public endpoints', () => {
  it('§2.9 answers /health, /settings and an empty JWKS for an HS256 server', async () => {
    const health = await identityFetch(api, '/health');
    expect(health.body).toMatchObject({
      name: 'GoTrue',
      description: 'GoTrue is a user registration and authentication API',
    });
    const settings = await identityFetch(api, '/settings');
    expect(settings.body).toMatchObject({ disable_signup: false, mailer_autoconfirm: true, external: { email: true } });
    const jwks = await identityFetch(api, '/.well-known/jwks.json');
    expect(jwks.body).toEqual({ keys: [] });
    expect(jwks.headers.get('cache-control')).toBe('public, max-age=600');
  });
});
