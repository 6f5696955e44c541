import { SignJWT, createRemoteJWKSet, decodeJwt, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config.js';
import { createTokenVerifier } from '../../server/src/identity/token-verifier.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { GOOD_PASSWORD, anonClient, decodeHeader, serviceClient, uniqueEmail } from '../support/identity.js';

let api: TestApp;
beforeAll(async () => {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'lampstand-es256-1', alg: 'ES256', key_ops: ['sign', 'verify'] };
  api = await startTestApp({ AUTH_JWT_KEYS: JSON.stringify([jwk]) });
});
afterAll(async () => {
  await api.close();
});

async function signUp(): Promise<string> {
  const { data, error } = await anonClient(api).auth.signUp({ email: uniqueEmail(), password: GOOD_PASSWORD });
  if (error || !data.session) throw error ?? new Error('no session');
  return data.session.access_token;
}

describe('asymmetric signing keys (AUTH_JWT_KEYS)', () => {
  it('§5.2 signs access tokens with ES256 and the key id in the header', async () => {
    expect(decodeHeader(await signUp())).toEqual({ alg: 'ES256', typ: 'JWT', kid: 'lampstand-es256-1' });
  });

  it('§2.9 publishes the public key, never the private part, for verification only', async () => {
    const response = await fetch(`${api.url}/auth/v1/.well-known/jwks.json`);
    const { keys } = (await response.json()) as { keys: Record<string, unknown>[] };
    expect(keys).toEqual([
      {
        kty: 'EC',
        crv: 'P-256',
        x: expect.any(String),
        y: expect.any(String),
        kid: 'lampstand-es256-1',
        alg: 'ES256',
        use: 'sig',
        key_ops: ['verify'],
      },
    ]);
  });

  it('§8 lets supabase-js getClaims verify a token locally through the JWKS', async () => {
    const token = await signUp();
    const { data, error } = await anonClient(api).auth.getClaims(token);
    expect(error).toBeNull();
    expect(data?.claims).toMatchObject({ role: 'authenticated', aud: 'authenticated' });
    expect(data?.header).toMatchObject({ alg: 'ES256', kid: 'lampstand-es256-1' });
  });

  it('§5.2 verifies with any JOSE library through the published JWKS', async () => {
    const token = await signUp();
    const jwks = createRemoteJWKSet(new URL(`${api.url}/auth/v1/.well-known/jwks.json`));
    const { payload } = await jwtVerify(token, jwks, { audience: 'authenticated', issuer: `${api.url}/auth/v1` });
    expect(payload.role).toBe('authenticated');
  });

  it('§2.8 accepts the service-role key signed with the ES256 key for the admin API', async () => {
    const { error } = await serviceClient(api).auth.admin.listUsers();
    expect(error).toBeNull();
  });

  it('§8 verifies ES256 tokens in hosted mode from SUPABASE_JWKS_URL, until they expire', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      SUPABASE_URL: api.url,
      SUPABASE_ANON_KEY: 'unused',
      SUPABASE_SERVICE_ROLE_KEY: 'unused',
      SUPABASE_JWKS_URL: `${api.url}/auth/v1/.well-known/jwks.json`,
      SUPABASE_JWT_ISSUER: `${api.url}/auth/v1`,
    });
    const token = await signUp();
    const verifier = createTokenVerifier(config, undefined);
    await expect(verifier.verify(token)).resolves.toMatchObject({ accessToken: token, stripeRole: null });
    const [header, payload] = token.split('.');
    await expect(verifier.verify(`${header ?? ''}.${payload ?? ''}.${'A'.repeat(86)}`)).rejects.toMatchObject({
      reason: 'invalid',
    });
  });

  it('§8 with both SUPABASE_JWT_SECRET and SUPABASE_JWKS_URL, verifies HS256 tokens with the secret and the others with the JWKS', async () => {
    const secret = 'the-legacy-hs256-secret-of-a-project-moving-to-keys';
    const config = loadConfig({
      NODE_ENV: 'test',
      SUPABASE_URL: api.url,
      SUPABASE_ANON_KEY: 'unused',
      SUPABASE_SERVICE_ROLE_KEY: 'unused',
      SUPABASE_JWT_SECRET: secret,
      SUPABASE_JWKS_URL: `${api.url}/auth/v1/.well-known/jwks.json`,
    });
    const es256 = await signUp();
    const hs256 = await new SignJWT(decodeJwt(es256))
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(secret));
    const forged = await new SignJWT(decodeJwt(es256))
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode('another-secret-that-is-long-enough-for-hs256'));
    const verifier = createTokenVerifier(config, undefined);
    await expect(verifier.verify(es256)).resolves.toMatchObject({ accessToken: es256 });
    await expect(verifier.verify(hs256)).resolves.toMatchObject({ accessToken: hs256 });
    await expect(verifier.verify(forged)).rejects.toMatchObject({ reason: 'invalid' });
  });
});
