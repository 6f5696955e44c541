import { AuthApiError } from '@supabase/supabase-js';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthFactorRecord } from '../../server/src/identity/embedded/factor-entities.js';
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
  withDatabase,
} from '../support/identity.js';
import { totpCode } from '../support/totp.js';

let api: TestApp;
/** Two challenges or verifications per minute per address, to reach the limit quickly. */
let limited: TestApp;
beforeAll(async () => {
  [api, limited] = await Promise.all([startTestApp(), startTestApp({ AUTH_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY: '2' })]);
});
afterAll(async () => {
  await Promise.all([api.close(), limited.close()]);
});

/** A signed-in supabase-js client of a new member (one device). */
async function member(app = api): Promise<{ client: SupabaseClient; email: string; userId: string }> {
  const email = uniqueEmail('mfa');
  const client = anonClient(app);
  const { data, error } = await client.auth.signUp({ email, password: GOOD_PASSWORD });
  if (error || !data.user) throw error ?? new Error('no user');
  return { client, email, userId: data.user.id };
}

/** Another device of the same member, signed in with the password only. */
async function otherDevice(email: string, app = api): Promise<SupabaseClient> {
  const client = anonClient(app);
  const { error } = await client.auth.signInWithPassword({ email, password: GOOD_PASSWORD });
  if (error) throw error;
  return client;
}

async function accessToken(client: SupabaseClient): Promise<string> {
  const { data } = await client.auth.getSession();
  if (!data.session) throw new Error('no session');
  return data.session.access_token;
}

/**
 * Enrolls a TOTP factor and verifies it with the code of `usedAt` (now); returns its id and
 * secret. Codes of that time step and older are spent from then on.
 */
async function enrolled(client: SupabaseClient): Promise<{ factorId: string; secret: string; usedAt: number }> {
  const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
  if (error) throw error;
  const usedAt = Date.now();
  const code = await totpCode(data.totp.secret, usedAt);
  const verified = await client.auth.mfa.challengeAndVerify({ factorId: data.id, code });
  if (verified.error) throw verified.error;
  return { factorId: data.id, secret: data.totp.secret, usedAt };
}

describe('enrolling a TOTP factor', () => {
  it('answers the QR code, secret and URI in Supabase Auth’s shape, and lists the factor unverified', async () => {
    const { client, email } = await member();
    const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'My phone' });
    expect(error).toBeNull();
    expect(data).toMatchObject({ id: expect.any(String), type: 'totp', friendly_name: 'My phone' });
    expect(data?.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg[\s\S]*<\/svg>\s*$/);
    expect(data?.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(data?.totp.uri ?? '');
    expect(uri.protocol).toBe('otpauth:');
    expect(decodeURIComponent(uri.pathname)).toContain(email);
    expect(uri.searchParams.get('secret')).toBe(data?.totp.secret);

    const { data: user } = await client.auth.getUser();
    expect(user.user?.factors).toEqual([
      expect.objectContaining({ id: data?.id, factor_type: 'totp', status: 'unverified', friendly_name: 'My phone' }),
    ]);
    const level = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
  });

  it('stores the secret encrypted, never as it was shown', async () => {
    const { client } = await member();
    const { data } = await client.auth.mfa.enroll({ factorType: 'totp' });
    const stored = await withDatabase(api, (dataSource) =>
      dataSource.getRepository(AuthFactorRecord).findOneByOrFail({ id: data?.id ?? '' }),
    );
    expect(stored.secret).not.toContain(data?.totp.secret ?? '?');
    expect(stored.secret).toMatch(/^v1:/);
  });

  it('refuses other factor types and a second factor of the same name', async () => {
    const { client } = await member();
    const phone = await client.auth.mfa.enroll({ factorType: 'phone', phone: '+15555550100' });
    expect(phone.error).toMatchObject({ status: 422, code: 'mfa_phone_enroll_disabled' });
    await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    const again = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    expect(again.error).toMatchObject({ status: 422, code: 'mfa_factor_name_conflict' });
  });
});

describe('verifying a factor', () => {
  it('raises the session to aal2 with totp in amr, answers a new session, and refreshing keeps it', async () => {
    const { client } = await member();
    const before = decodeClaims(await accessToken(client));
    const { factorId } = await enrolled(client);

    const claims = decodeClaims(await accessToken(client));
    expect(claims.aal).toBe('aal2');
    expect(claims.session_id).toBe(before.session_id);
    expect(claims.amr).toHaveLength(2);
    expect(claims.amr).toEqual(
      expect.arrayContaining([
        { method: 'totp', timestamp: expect.any(Number) },
        { method: 'password', timestamp: expect.any(Number) },
      ]),
    );
    const level = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    const factors = await client.auth.mfa.listFactors();
    expect(factors.data?.totp).toEqual([expect.objectContaining({ id: factorId, status: 'verified' })]);

    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(decodeClaims(refreshed.data.session?.access_token ?? '').aal).toBe('aal2');
  });

  it('refuses the refresh token of the session from before the code', async () => {
    const { client } = await member();
    const { data } = await client.auth.getSession();
    const oldRefreshToken = data.session?.refresh_token ?? '';
    await enrolled(client);
    const replay = await anonClient(api).auth.refreshSession({ refresh_token: oldRefreshToken });
    expect(replay.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
  });

  it('asks a new sign-in for the code: aal1 with aal2 next, until a code passes', async () => {
    const { client, email } = await member();
    const { factorId, secret, usedAt } = await enrolled(client);
    const laptop = await otherDevice(email);
    expect(decodeClaims(await accessToken(laptop)).aal).toBe('aal1');
    const level = await laptop.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });

    // The current code was spent on the enrolment; the next step's code is already accepted.
    const next = await totpCode(secret, usedAt + 30_000);
    const verified = await laptop.auth.mfa.challengeAndVerify({ factorId, code: next });
    expect(verified.error).toBeNull();
    expect(decodeClaims(await accessToken(laptop)).aal).toBe('aal2');
  });

  it('refuses a wrong code and a code already used, changing nothing', async () => {
    const { client, email } = await member();
    const { factorId, secret, usedAt } = await enrolled(client);
    const laptop = await otherDevice(email);
    const code = await totpCode(secret, usedAt);
    const wrong = code === '000000' ? '111111' : '000000';

    for (const attempt of [wrong, code]) {
      const { error } = await laptop.auth.mfa.challengeAndVerify({ factorId, code: attempt });
      expect(error).toBeInstanceOf(AuthApiError);
      expect(error).toMatchObject({
        status: 422,
        code: 'mfa_verification_failed',
        message: 'Invalid TOTP code entered',
      });
    }
    expect(decodeClaims(await accessToken(laptop)).aal).toBe('aal1');
  });

  it('answers a challenge only once', async () => {
    const { client, email } = await member();
    const { factorId, secret, usedAt } = await enrolled(client);
    const laptop = await otherDevice(email);
    const challenge = await laptop.auth.mfa.challenge({ factorId });
    const challengeId = challenge.data?.id ?? '';
    const first = await laptop.auth.mfa.verify({
      factorId,
      challengeId,
      code: await totpCode(secret, usedAt + 30_000),
    });
    expect(first.error).toBeNull();
    const second = await laptop.auth.mfa.verify({
      factorId,
      challengeId,
      code: await totpCode(secret, usedAt + 60_000),
    });
    expect(second.error).toMatchObject({ status: 422, code: 'mfa_ip_address_mismatch' });
  });

  it('limits challenges per address', async () => {
    const { client } = await member(limited);
    const { data } = await client.auth.mfa.enroll({ factorType: 'totp' });
    const factorId = data?.id ?? '';
    for (let attempt = 0; attempt < 2; attempt++) {
      expect((await client.auth.mfa.challenge({ factorId })).error).toBeNull();
    }
    const over = await client.auth.mfa.challenge({ factorId });
    expect(over.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
  });
});

describe('unenrolling', () => {
  it('needs aal2 for a verified factor, then lowers the sessions it raised', async () => {
    const { client, email } = await member();
    const { factorId } = await enrolled(client);
    const laptop = await otherDevice(email);
    const refused = await laptop.auth.mfa.unenroll({ factorId });
    expect(refused.error).toMatchObject({ status: 403, code: 'insufficient_aal' });

    const { data, error } = await client.auth.mfa.unenroll({ factorId });
    expect(error).toBeNull();
    expect(data).toEqual({ id: factorId });
    const refreshed = await client.auth.refreshSession();
    const claims = decodeClaims(refreshed.data.session?.access_token ?? '');
    expect(claims.aal).toBe('aal1');
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);
    expect((await client.auth.mfa.listFactors()).data?.all).toEqual([]);
  });

  it('refuses enrolling another factor from an aal1 session once one is verified', async () => {
    const { client, email } = await member();
    await enrolled(client);
    const laptop = await otherDevice(email);
    const { error } = await laptop.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Laptop' });
    expect(error).toMatchObject({ status: 403, code: 'insufficient_aal' });
  });
});

describe('changing the email or password with a verified factor', () => {
  it('refuses an aal1 session with 403 insufficient_aal and changes nothing; the aal2 session may', async () => {
    const { client, email } = await member();
    await enrolled(client);
    const laptop = await otherDevice(email);

    const password = await laptop.auth.updateUser({ password: 'a stolen password only' });
    expect(password.error).toMatchObject({ status: 403, code: 'insufficient_aal' });
    const address = await laptop.auth.updateUser({ email: uniqueEmail('taken-over') });
    expect(address.error).toMatchObject({ status: 403, code: 'insufficient_aal' });
    // Metadata too (deny by default: every change needs the factor).
    const note = await laptop.auth.updateUser({ data: { note: 'refused' } });
    expect(note.error).toMatchObject({ status: 403, code: 'insufficient_aal' });
    // The old password still signs in; the address is unchanged and nothing is pending.
    const { data } = await client.auth.getUser();
    expect(data.user?.email).toBe(email);
    expect(data.user?.new_email).toBeUndefined();
    expect(data.user?.user_metadata.note).toBeUndefined();
    expect((await otherDevice(email).then((device) => device.auth.getSession())).data.session).not.toBeNull();

    const changed = await client.auth.updateUser({ password: 'the member’s own new one' });
    expect(changed.error).toBeNull();
    const withNew = await anonClient(api).auth.signInWithPassword({ email, password: 'the member’s own new one' });
    expect(withNew.error).toBeNull();
  });

  it('lets a member without a verified factor change the password from an aal1 session', async () => {
    const { client, email } = await member();
    await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Unfinished' });
    const { error } = await client.auth.updateUser({ password: 'a plain new password' });
    expect(error).toBeNull();
    expect(
      (await anonClient(api).auth.signInWithPassword({ email, password: 'a plain new password' })).error,
    ).toBeNull();
  });
});

describe('admin factors', () => {
  it('lists a user’s factors and deletes one (a lost phone): the user signs in with the password alone', async () => {
    const { client, email, userId } = await member();
    const { factorId } = await enrolled(client);
    const admin = serviceClient(api).auth.admin.mfa;

    const listed = await admin.listFactors({ userId });
    expect(listed.error).toBeNull();
    expect(listed.data?.factors).toEqual([
      expect.objectContaining({ id: factorId, factor_type: 'totp', status: 'verified' }),
    ]);
    // As Supabase Auth, the answer is the deleted factor (supabase-js wraps it once more in `data`).
    const deleted = await identityFetch(api, `/admin/users/${userId}/factors/${factorId}`, {
      method: 'DELETE',
      token: identityKeys(api).serviceRoleKey,
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: factorId, factor_type: 'totp', status: 'verified' });
    const again = await admin.deleteFactor({ userId, id: factorId });
    expect(again.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    expect((await admin.listFactors({ userId })).data?.factors).toEqual([]);

    const laptop = await otherDevice(email);
    const level = await laptop.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
  });

  it('answers 404 for a factor of another user, and refuses a member token', async () => {
    const { userId } = await member();
    const other = await member();
    const { factorId } = await enrolled(other.client);
    const deleted = await serviceClient(api).auth.admin.mfa.deleteFactor({ userId, id: factorId });
    expect(deleted.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    const asMember = await identityFetch(api, `/admin/users/${other.userId}/factors`, {
      token: await accessToken(other.client),
    });
    expect(asMember.status).toBe(403);
  });
});
