import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { GOOD_PASSWORD, anonClient, decodeClaims, identityFetch, uniqueEmail } from '../support/identity.js';
import { SoftAuthenticator } from '../support/webauthn.js';
import type { AssertionJson, Ceremony, RegistrationJson } from '../support/webauthn.js';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => {
  await api.close();
});

/** The relying party the test app is configured for (PUBLIC_URL's host and origin). */
function party(): { rpId: string; origin: string } {
  const { rpId, origins } = api.config.auth.webauthn;
  return { rpId, origin: origins[0] ?? '' };
}

/** A challenge that supabase-js deserialized (ArrayBuffer) back in base64url, as the authenticator signs it. */
function challengeText(challenge: unknown): string {
  if (typeof challenge === 'string') return challenge;
  return Buffer.from(new Uint8Array(challenge as ArrayBuffer)).toString('base64url');
}

/** What a browser's credential looks like to supabase-js's serializer: an object with `toJSON`. */
function asCredential(json: object): never {
  return { ...json, toJSON: () => json } as never;
}

async function member(): Promise<{ client: SupabaseClient; email: string; userId: string }> {
  const email = uniqueEmail('passkey');
  const client = anonClient(api);
  const { data, error } = await client.auth.signUp({ email, password: GOOD_PASSWORD });
  if (error || !data.user) throw error ?? new Error('no user');
  return { client, email, userId: data.user.id };
}

async function accessToken(client: SupabaseClient): Promise<string> {
  const { data } = await client.auth.getSession();
  if (!data.session) throw new Error('no session');
  return data.session.access_token;
}

/** Enrolls a WebAuthn factor with supabase-js and registers `authenticator`'s credential on it. */
async function registered(
  client: SupabaseClient,
  userId: string,
): Promise<{ factorId: string; key: SoftAuthenticator }> {
  const { rpId, origin } = party();
  const key = new SoftAuthenticator();
  const enrolled = await client.auth.mfa.webauthn.enroll({ friendlyName: 'Laptop' });
  if (enrolled.error) throw enrolled.error;
  const factorId = enrolled.data.id;
  const challenged = await client.auth.mfa.challenge({ factorId, webauthn: { rpId, rpOrigins: [origin] } });
  if (challenged.error) throw challenged.error;
  const { publicKey } = challenged.data.webauthn.credential_options;
  const credential = key.register(
    { challenge: challengeText(publicKey.challenge), origin, rpId },
    Buffer.from(userId).toString('base64url'),
  );
  const verified = await client.auth.mfa.verify({
    factorId,
    challengeId: challenged.data.id,
    webauthn: { type: 'create', rpId, rpOrigins: [origin], credential_response: asCredential(credential) },
  });
  if (verified.error) throw verified.error;
  return { factorId, key };
}

/** Signs in with the password only on another device (aal1 until a factor passes). */
async function passwordDevice(email: string): Promise<SupabaseClient> {
  const client = anonClient(api);
  const { error } = await client.auth.signInWithPassword({ email, password: GOOD_PASSWORD });
  if (error) throw error;
  return client;
}

/** A raw challenge of a verified factor: its id and the challenge to sign. */
async function requestChallenge(token: string, factorId: string): Promise<{ id: string; challenge: string }> {
  const { rpId, origin } = party();
  const { status, body } = await identityFetch(api, `/factors/${factorId}/challenge`, {
    token,
    body: { webauthn: { rpId, rpOrigins: [origin] } },
  });
  expect(status).toBe(200);
  const webauthn = body.webauthn as { type: string; credential_options: { publicKey: { challenge: string } } };
  expect(webauthn.type).toBe('request');
  return { id: body.id as string, challenge: webauthn.credential_options.publicKey.challenge };
}

async function verifyFactor(
  token: string,
  factorId: string,
  challengeId: string,
  response: AssertionJson | RegistrationJson,
) {
  return identityFetch(api, `/factors/${factorId}/verify`, {
    token,
    body: { challenge_id: challengeId, webauthn: { type: 'request', credential_response: response } },
  });
}

describe('a WebAuthn factor in Supabase Auth’s factor API', () => {
  it('registers through supabase-js’s enroll, challenge and verify, and raises the session to aal2', async () => {
    const { client, userId } = await member();
    const before = decodeClaims(await accessToken(client));
    const { factorId, key } = await registered(client, userId);

    const claims = decodeClaims(await accessToken(client));
    expect(claims).toMatchObject({ aal: 'aal2', session_id: before.session_id });
    expect(claims.amr).toEqual(expect.arrayContaining([{ method: 'webauthn', timestamp: expect.any(Number) }]));
    const factors = await client.auth.mfa.listFactors();
    expect(factors.data?.webauthn).toEqual([
      expect.objectContaining({ id: factorId, factor_type: 'webauthn', status: 'verified', friendly_name: 'Laptop' }),
    ]);
    // The same credential cannot be registered twice, on this account or another.
    const again = await client.auth.mfa.webauthn.enroll({ friendlyName: 'Laptop again' });
    const { rpId, origin } = party();
    const challenged = await client.auth.mfa.challenge({
      factorId: again.data?.id ?? '',
      webauthn: { rpId, rpOrigins: [origin] },
    });
    if (challenged.error) throw challenged.error;
    const copy = key.register({
      challenge: challengeText(challenged.data.webauthn.credential_options.publicKey.challenge),
      origin,
      rpId,
    });
    const refused = await client.auth.mfa.verify({
      factorId: again.data?.id ?? '',
      challengeId: challenged.data.id,
      webauthn: { type: 'create', rpId, rpOrigins: [origin], credential_response: asCredential(copy) },
    });
    expect(refused.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
  });

  it('is the second factor after a password: a signed challenge raises aal1 to aal2, once', async () => {
    const { client, email, userId } = await member();
    const { factorId, key } = await registered(client, userId);
    const device = await passwordDevice(email);
    const token = await accessToken(device);
    expect(decodeClaims(token).aal).toBe('aal1');
    const level = await device.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });

    const { rpId, origin } = party();
    const { id, challenge } = await requestChallenge(token, factorId);
    const answer = key.assert({ challenge, origin, rpId });
    const { status, body } = await verifyFactor(token, factorId, id, answer);
    expect(status).toBe(200);
    const raised = decodeClaims(body.access_token as string);
    expect(raised).toMatchObject({ aal: 'aal2', session_id: decodeClaims(token).session_id });

    const replayed = await verifyFactor(token, factorId, id, answer);
    expect(replayed).toMatchObject({ status: 422, body: { code: 'mfa_challenge_expired' } });
  });

  it('refuses a wrong origin, a wrong relying party id, a bad signature and an unknown relying party', async () => {
    const { client, email, userId } = await member();
    const { factorId, key } = await registered(client, userId);
    const device = await passwordDevice(email);
    const token = await accessToken(device);
    const { rpId, origin } = party();
    const wrong: Partial<Ceremony>[] = [{ origin: 'https://phish.example' }, { rpId: 'phish.example' }];
    for (const change of wrong) {
      const { id, challenge } = await requestChallenge(token, factorId);
      const answer = key.assert({ challenge, origin, rpId, ...change });
      const refused = await verifyFactor(token, factorId, id, answer);
      expect(refused).toMatchObject({ status: 422, body: { code: 'mfa_verification_failed' } });
    }
    const { id, challenge } = await requestChallenge(token, factorId);
    const forged = await verifyFactor(token, factorId, id, key.assert({ challenge, origin, rpId }, { forge: true }));
    expect(forged).toMatchObject({ status: 422, body: { code: 'mfa_verification_failed' } });

    const foreign = await identityFetch(api, `/factors/${factorId}/challenge`, {
      token,
      body: { webauthn: { rpId: 'phish.example', rpOrigins: ['https://phish.example'] } },
    });
    expect(foreign).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    const otherOrigin = await identityFetch(api, `/factors/${factorId}/challenge`, {
      token,
      body: { webauthn: { rpId, rpOrigins: ['https://phish.example'] } },
    });
    expect(otherOrigin).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    // Nothing of this raised the session.
    const user = await identityFetch(api, '/user', { token });
    expect(user.status).toBe(200);
    expect(decodeClaims(await accessToken(device)).aal).toBe('aal1');
  });
});

/** The extension's first step: a challenge for any passkey of this site. */
async function passkeyChallenge(): Promise<{ id: string; challenge: string }> {
  const { status, body } = await identityFetch(api, '/passkeys/authentication/options', { body: {} });
  expect(status).toBe(200);
  const options = body.options as { challenge: string; rpId: string; userVerification: string };
  expect(options).toMatchObject({ rpId: party().rpId, userVerification: 'required' });
  return { id: body.challenge_id as string, challenge: options.challenge };
}

async function passkeySignIn(challengeId: string, credential: AssertionJson) {
  return identityFetch(api, '/passkeys/authentication/verify', { body: { challenge_id: challengeId, credential } });
}

describe('sign-in with a passkey (extension)', () => {
  it('signs in with the passkey alone at aal2, and a replayed answer is refused', async () => {
    const { client, userId } = await member();
    const { key } = await registered(client, userId);
    const { rpId, origin } = party();
    const { id, challenge } = await passkeyChallenge();
    const answer = key.assert({ challenge, origin, rpId });
    const { status, body } = await passkeySignIn(id, answer);
    expect(status).toBe(200);
    expect(body).toMatchObject({ token_type: 'bearer', refresh_token: expect.any(String), user: { id: userId } });
    const claims = decodeClaims(body.access_token as string);
    expect(claims).toMatchObject({ sub: userId, aal: 'aal2' });
    expect(claims.amr).toEqual([{ method: 'webauthn', timestamp: expect.any(Number) }]);
    const user = await identityFetch(api, '/user', { token: body.access_token as string });
    expect(user.status).toBe(200);

    expect(await passkeySignIn(id, answer)).toMatchObject({
      status: 422,
      body: { code: 'webauthn_challenge_expired' },
    });
  });

  it('refuses a wrong origin, a wrong relying party id, a bad signature, no user verification and an unknown passkey', async () => {
    const { client, userId } = await member();
    const { key, factorId } = await registered(client, userId);
    const { rpId, origin } = party();
    const wrong: Partial<Ceremony>[] = [
      { origin: 'https://phish.example' },
      { rpId: 'phish.example' },
      { userVerified: false },
    ];
    for (const change of wrong) {
      const { id, challenge } = await passkeyChallenge();
      const refused = await passkeySignIn(id, key.assert({ challenge, origin, rpId, ...change }));
      expect(refused).toMatchObject({ status: 422, body: { code: 'webauthn_verification_failed' } });
    }
    const forged = await passkeyChallenge();
    expect(
      await passkeySignIn(forged.id, key.assert({ challenge: forged.challenge, origin, rpId }, { forge: true })),
    ).toMatchObject({ status: 422, body: { code: 'webauthn_verification_failed' } });
    const stranger = await passkeyChallenge();
    const unknown = new SoftAuthenticator();
    expect(
      await passkeySignIn(stranger.id, unknown.assert({ challenge: stranger.challenge, origin, rpId })),
    ).toMatchObject({ status: 422, body: { code: 'webauthn_verification_failed' } });

    // Once the factor is removed (from an aal2 session), the passkey signs in no more.
    const removed = await client.auth.mfa.unenroll({ factorId });
    expect(removed.error).toBeNull();
    const after = await passkeyChallenge();
    expect(await passkeySignIn(after.id, key.assert({ challenge: after.challenge, origin, rpId }))).toMatchObject({
      status: 422,
      body: { code: 'webauthn_verification_failed' },
    });
  });
});
