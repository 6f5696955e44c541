import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../server/src/config.js';
import { createTokenVerifier, TokenVerificationError } from '../../server/src/identity/token-verifier.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import {
  GOOD_PASSWORD,
  anonClient,
  decodeClaims,
  identityKeys,
  serviceClient,
  uniqueEmail,
} from '../support/identity.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256-signing';
let api: TestApp;
beforeAll(async () => {
  api = await startTestApp({ AUTH_JWT_SECRET: SECRET });
});
afterAll(async () => {
  await api.close();
});

async function signUp(): Promise<{ id: string; accessToken: string; refreshToken: string }> {
  const { data, error } = await anonClient(api).auth.signUp({ email: uniqueEmail(), password: GOOD_PASSWORD });
  if (error || !data.session) throw error ?? new Error('no session');
  return { id: data.session.user.id, accessToken: data.session.access_token, refreshToken: data.session.refresh_token };
}

/** A token like the service's own, re-signed with changed claims or another key. */
async function forge(token: string, changes: Record<string, unknown>, secret = SECRET): Promise<string> {
  const claims = { ...decodeClaims(token), ...changes };
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret));
}

const embedded = () => api.app.identity.verifier;

describe('local access-token verification (embedded mode)', () => {
  it('B8 names the caller of a valid token, with its stripeRole claim', async () => {
    const { id, accessToken, refreshToken } = await signUp();
    const user = await embedded().verify(accessToken);
    expect(user).toEqual({
      id,
      email: expect.any(String),
      sessionId: decodeClaims(accessToken).session_id,
      aal: 'aal1',
      secondFactorPending: false,
      emailLinkAt: null,
      stripeRole: null,
      accessToken,
    });

    await serviceClient(api).auth.admin.updateUserById(id, { app_metadata: { stripeRole: 'plus' } });
    const refreshed = await anonClient(api).auth.refreshSession({ refresh_token: refreshToken });
    await expect(embedded().verify(refreshed.data.session?.access_token ?? '')).resolves.toMatchObject({
      stripeRole: 'plus',
    });
  });

  it('B8 refuses an expired token', async () => {
    const { accessToken } = await signUp();
    const expired = await forge(accessToken, { iat: 1_700_000_000, exp: 1_700_003_600 });
    await expect(embedded().verify(expired)).rejects.toMatchObject({
      name: 'TokenVerificationError',
      reason: 'expired',
    });
  });

  it('B8 refuses a token once it expires, though it was verified before', async () => {
    const { accessToken } = await signUp();
    await expect(embedded().verify(accessToken)).resolves.toMatchObject({ accessToken });
    const { exp } = decodeClaims(accessToken) as { exp: number };
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(exp * 1000 + 1000);
      await expect(embedded().verify(accessToken)).rejects.toMatchObject({ reason: 'expired' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('B8 refuses alg none', async () => {
    const { accessToken } = await signUp();
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const unsigned = `${header}.${accessToken.split('.')[1] ?? ''}.`;
    await expect(embedded().verify(unsigned)).rejects.toMatchObject({ reason: 'invalid' });
  });

  it('B8 refuses another audience, another issuer and a token without exp', async () => {
    const { accessToken } = await signUp();
    for (const changes of [{ aud: 'somebody-else' }, { iss: 'https://evil.example/auth/v1' }, { exp: undefined }]) {
      await expect(embedded().verify(await forge(accessToken, changes))).rejects.toBeInstanceOf(TokenVerificationError);
    }
  });

  it('B8 refuses a token signed with a foreign key', async () => {
    const { accessToken } = await signUp();
    const foreign = await forge(accessToken, {}, 'another-secret-that-is-also-long-enough-for-hs256');
    await expect(embedded().verify(foreign)).rejects.toMatchObject({ reason: 'invalid' });
  });

  it('B8 refuses API keys, which name no signed-in user', async () => {
    const { anonKey, serviceRoleKey } = identityKeys(api);
    for (const key of [anonKey, serviceRoleKey])
      await expect(embedded().verify(key)).rejects.toMatchObject({ reason: 'invalid' });
  });

  it('B8 refuses the token of a logged-out session at once', async () => {
    const { accessToken } = await signUp();
    await expect(embedded().verify(accessToken)).resolves.toBeTruthy();
    await serviceClient(api).auth.admin.signOut(accessToken, 'local');
    await expect(embedded().verify(accessToken)).rejects.toMatchObject({ reason: 'session_ended' });
  });

  it('B8 refuses the token of a deleted user at once', async () => {
    const { id, accessToken } = await signUp();
    await serviceClient(api).auth.admin.deleteUser(id);
    await expect(embedded().verify(accessToken)).rejects.toMatchObject({ reason: 'session_ended' });
  });
});

describe('local access-token verification (hosted mode, HS256 secret)', () => {
  it('§8 accepts a valid token until it expires, even after logout (documented)', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      SUPABASE_URL: api.url,
      SUPABASE_ANON_KEY: identityKeys(api).anonKey,
      SUPABASE_SERVICE_ROLE_KEY: identityKeys(api).serviceRoleKey,
      SUPABASE_JWT_SECRET: SECRET,
    });
    const { id, accessToken } = await signUp();
    const hosted = createTokenVerifier(config, undefined);
    await expect(hosted.verify(accessToken)).resolves.toMatchObject({ id });
    await serviceClient(api).auth.admin.signOut(accessToken, 'global');
    await expect(hosted.verify(accessToken)).resolves.toMatchObject({ id });
    await expect(hosted.verify(await forge(accessToken, { aud: 'other' }))).rejects.toMatchObject({
      reason: 'invalid',
    });
    await expect(hosted.verify(await forge(accessToken, { exp: 1_700_000_000 }))).rejects.toMatchObject({
      reason: 'expired',
    });
  });
});
