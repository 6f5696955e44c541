import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthSessionRecord } from '../../server/src/identity/embedded/entities.js';
import { AuthFactorRecord } from '../../server/src/identity/embedded/factor-entities.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import {
  GOOD_PASSWORD,
  anonClient,
  decodeClaims,
  identityFetch,
  serviceClient,
  uniqueEmail,
} from '../support/identity.js';
import type { SmtpListener } from '../support/smtp.js';
import { startSmtpListener } from '../support/smtp.js';
import { totpCode } from '../support/totp.js';

let smtp: SmtpListener;
/** The embedded defaults, with mail over real SMTP (for the reauthentication nonce). */
let api: TestApp;
/** Behind a trusted proxy (127.0.0.1): X-Forwarded-For names the client; three token grants at once. */
let proxied: TestApp;

beforeAll(async () => {
  smtp = await startSmtpListener();
  [api, proxied] = await Promise.all([
    startTestApp({ SMTP_URL: smtp.url, AUTH_RATE_LIMIT_EMAIL_SENT: '1000' }),
    startTestApp({ TRUST_PROXY: '127.0.0.1', AUTH_RATE_LIMIT_TOKEN: '15', AUTH_RATE_LIMIT_TOKEN_BURST: '3' }),
  ]);
});
afterAll(async () => {
  await Promise.all([api.close(), proxied.close()]);
  await smtp.close();
});

const NEW_PASSWORD = 'a brand new passphrase for reauth';

interface Member {
  email: string;
  userId: string;
  client: SupabaseClient;
}

/** A new member, signed in just now with the password (autoconfirm). */
async function member(app = api): Promise<Member> {
  const email = uniqueEmail('reauth');
  const client = anonClient(app);
  const { data, error } = await client.auth.signUp({ email, password: GOOD_PASSWORD });
  if (error || !data.user) throw error ?? new Error('no user');
  return { email, userId: data.user.id, client };
}

async function accessToken(client: SupabaseClient): Promise<string> {
  const { data } = await client.auth.getSession();
  if (!data.session) throw new Error('no session');
  return data.session.access_token;
}

/** Moves every sign-in of the client's session `minutes` back: a token that is all a thief has. */
async function signedInAgo(app: TestApp, client: SupabaseClient, minutes: number): Promise<void> {
  const sessionId = decodeClaims(await accessToken(client)).session_id as string;
  const session = await app.dataSource.manager.findOneByOrFail(AuthSessionRecord, { id: sessionId });
  const back = minutes * 60;
  const amr = session.amr.map((entry) => ({ ...entry, timestamp: entry.timestamp - back }));
  await app.dataSource.manager.update(AuthSessionRecord, { id: sessionId }, { amr });
}

async function passwordWorks(app: TestApp, email: string, password: string): Promise<boolean> {
  return !(await anonClient(app).auth.signInWithPassword({ email, password })).error;
}

/** The 6-digit code of the reauthentication mail. */
async function mailedNonce(email: string): Promise<string> {
  const mail = await smtp.nextMessage(email);
  const code = /code: (\d{6})/.exec(mail.body)?.[1];
  if (!code) throw new Error(`no code in the mail "${mail.subject}"`);
  return code;
}

/** Enrolls and verifies a TOTP factor in the client's session (which becomes aal2). */
async function enrolled(client: SupabaseClient): Promise<{ factorId: string; secret: string }> {
  const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
  if (error) throw error;
  const code = await totpCode(data.totp.secret);
  const verified = await client.auth.mfa.challengeAndVerify({ factorId: data.id, code });
  if (verified.error) throw verified.error;
  return { factorId: data.id, secret: data.totp.secret };
}

describe('B13 a password change through PUT /user needs re-authentication', () => {
  it('refuses a bare token (a session signed in an hour ago) with reauthentication_needed, and keeps the password', async () => {
    const { email, client } = await member();
    await signedInAgo(api, client, 60);
    const refused = await client.auth.updateUser({ password: NEW_PASSWORD });
    expect(refused.error).toMatchObject({ status: 400, code: 'reauthentication_needed' });
    // Just past the window (15 minutes by default) is too late as well.
    const { client: later } = await member();
    await signedInAgo(api, later, 16);
    expect((await later.auth.updateUser({ password: NEW_PASSWORD })).error).toMatchObject({
      code: 'reauthentication_needed',
    });
    expect(await passwordWorks(api, email, GOOD_PASSWORD)).toBe(true);
    expect(await passwordWorks(api, email, NEW_PASSWORD)).toBe(false);
  });

  it('accepts the current password (current_password) and refuses a wrong one with current_password_mismatch', async () => {
    const { email, client } = await member();
    await signedInAgo(api, client, 60);
    const token = await accessToken(client);
    const wrong = await identityFetch(api, '/user', {
      method: 'PUT',
      token,
      body: { password: NEW_PASSWORD, current_password: 'not the password at all' },
    });
    expect(wrong).toMatchObject({ status: 400, body: { code: 'current_password_mismatch' } });
    expect(await passwordWorks(api, email, NEW_PASSWORD)).toBe(false);
    const changed = await client.auth.updateUser({ password: NEW_PASSWORD, current_password: GOOD_PASSWORD });
    expect(changed.error).toBeNull();
    expect(await passwordWorks(api, email, NEW_PASSWORD)).toBe(true);
  });

  it('accepts the nonce GET /reauthenticate mails', async () => {
    const { email, client } = await member();
    await signedInAgo(api, client, 60);
    expect((await client.auth.reauthenticate()).error).toBeNull();
    const nonce = await mailedNonce(email);
    expect((await client.auth.updateUser({ password: NEW_PASSWORD, nonce })).error).toBeNull();
    expect(await passwordWorks(api, email, NEW_PASSWORD)).toBe(true);
  });

  it('accepts a session signed in with the password minutes ago', async () => {
    const { email, client } = await member();
    await signedInAgo(api, client, 5);
    expect((await client.auth.updateUser({ password: NEW_PASSWORD })).error).toBeNull();
    expect(await passwordWorks(api, email, NEW_PASSWORD)).toBe(true);
  });

  it('lets a recovery session (reset link) set a new password once, not twice', async () => {
    const { email } = await member();
    const link = await serviceClient(api).auth.admin.generateLink({ type: 'recovery', email });
    expect(link.error).toBeNull();
    const recovery = anonClient(api);
    const opened = await recovery.auth.verifyOtp({
      type: 'recovery',
      token_hash: link.data.properties?.hashed_token ?? '',
    });
    expect(opened.error).toBeNull();
    expect((await recovery.auth.updateUser({ password: NEW_PASSWORD })).error).toBeNull();
    const again = await recovery.auth.updateUser({ password: 'and yet another passphrase' });
    expect(again.error).toMatchObject({ status: 400, code: 'reauthentication_needed' });
    expect(await passwordWorks(api, email, NEW_PASSWORD)).toBe(true);
    // Spent, the reset session has nothing left to show for an email change either.
    const email2 = await recovery.auth.updateUser({ email: uniqueEmail('moved') });
    expect(email2.error).toMatchObject({ code: 'reauthentication_needed' });
  });
});

describe('B13 an email change needs re-authentication', () => {
  it('refuses a bare token, and accepts the current password or a recent sign-in', async () => {
    const { client } = await member();
    await signedInAgo(api, client, 60);
    const refused = await client.auth.updateUser({ email: uniqueEmail('thief') });
    expect(refused.error).toMatchObject({ status: 400, code: 'reauthentication_needed' });
    expect((await client.auth.getUser()).data.user?.new_email).toBeUndefined();

    const target = uniqueEmail('moved');
    const changed = await identityFetch(api, '/user', {
      method: 'PUT',
      token: await accessToken(client),
      body: { email: target, current_password: GOOD_PASSWORD },
    });
    expect(changed).toMatchObject({ status: 200, body: { new_email: target } });

    const { client: fresh } = await member();
    const other = uniqueEmail('fresh');
    expect((await fresh.auth.updateUser({ email: other })).data.user?.new_email).toBe(other);
  });
});

describe('B13 removing a verified factor needs re-authentication', () => {
  it('refuses an aal2 session whose sign-in and code are old, and accepts the current password', async () => {
    const { client, userId } = await member();
    const { factorId } = await enrolled(client);
    await signedInAgo(api, client, 60);
    const refused = await client.auth.mfa.unenroll({ factorId });
    expect(refused.error).toMatchObject({ status: 400, code: 'reauthentication_needed' });
    expect(await api.dataSource.manager.countBy(AuthFactorRecord, { userId, status: 'verified' })).toBe(1);

    const removed = await identityFetch(api, `/factors/${factorId}`, {
      method: 'DELETE',
      token: await accessToken(client),
      body: { current_password: GOOD_PASSWORD },
    });
    expect(removed).toMatchObject({ status: 200, body: { id: factorId } });
    expect(await api.dataSource.manager.countBy(AuthFactorRecord, { userId })).toBe(0);
  });

  it('accepts a session that passed its code minutes ago', async () => {
    const { client } = await member();
    const { factorId } = await enrolled(client);
    expect((await client.auth.mfa.unenroll({ factorId })).error).toBeNull();
  });
});

/** A 6-digit code that is none of the codes valid around now (the step before, now, the step after). */
async function wrongCode(secret: string): Promise<string> {
  const now = Date.now();
  const valid = new Set(await Promise.all([-30_000, 0, 30_000].map((shift) => totpCode(secret, now + shift))));
  for (let candidate = 0; ; candidate++) {
    const code = String(candidate).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

/** A challenge and a code for it, sent to the proxied app from `address` (X-Forwarded-For). */
async function codeAttempt(token: string, factorId: string, address: string, code: string) {
  const headers = { 'x-forwarded-for': address };
  const challenge = await identityFetch(proxied, `/factors/${factorId}/challenge`, { token, headers, body: {} });
  expect(challenge.status).toBe(200);
  return identityFetch(proxied, `/factors/${factorId}/verify`, {
    token,
    headers,
    body: { challenge_id: challenge.body.id, code },
  });
}

describe('B13 wrong TOTP codes are counted per factor, whatever the address', () => {
  it('locks the factor after 5 wrong codes sent from 20 addresses, and then refuses the right code too', async () => {
    const { email, client } = await member(proxied);
    const { factorId, secret } = await enrolled(client);
    // A thief with the password only: an aal1 session, asking from a new address each time.
    const thief = anonClient(proxied);
    expect((await thief.auth.signInWithPassword({ email, password: GOOD_PASSWORD })).error).toBeNull();
    const token = await accessToken(thief);
    const attempt = (address: string, code: string) => codeAttempt(token, factorId, address, code);
    const answers = [];
    for (let index = 1; index <= 20; index++) {
      const answer = await attempt(`198.51.100.${index}`, await wrongCode(secret));
      answers.push(`${answer.status} ${String(answer.body.code)}`);
    }
    expect(answers).toEqual([
      ...Array<string>(5).fill('422 mfa_verification_failed'),
      ...Array<string>(15).fill('429 mfa_factor_locked'),
    ]);
    const right = await attempt('198.51.100.99', await totpCode(secret));
    expect(right).toMatchObject({ status: 429, body: { code: 'mfa_factor_locked' } });
    expect(decodeClaims(token).aal).toBe('aal1');
  });

  it('counts wrong codes per account too: 10 over two factors lock a third', async () => {
    const { client } = await member(proxied);
    const token = await accessToken(client);
    const factors = [];
    for (const name of ['One', 'Two', 'Three']) {
      const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: name });
      if (error) throw error;
      factors.push({ id: data.id, secret: data.totp.secret });
    }
    const [first, second, third] = factors as [(typeof factors)[0], (typeof factors)[0], (typeof factors)[0]];
    const answers = [];
    let host = 0;
    for (const factor of [first, second]) {
      for (let index = 0; index < 5; index++) {
        const answer = await codeAttempt(token, factor.id, `192.0.2.${++host}`, await wrongCode(factor.secret));
        answers.push(answer.body.code);
      }
    }
    expect(answers).toEqual(Array<string>(10).fill('mfa_verification_failed'));
    const locked = await codeAttempt(token, third.id, '192.0.2.99', await totpCode(third.secret));
    expect(locked).toMatchObject({ status: 429, body: { code: 'mfa_factor_locked' } });
  });

  it('gives back the try of a right code: a member who types it right is never locked', async () => {
    const { client } = await member(proxied);
    const { factorId, secret } = await enrolled(client);
    // The enrolment spent the current step; four wrong ones and the right next step still pass.
    for (let index = 0; index < 4; index++) {
      const wrong = await client.auth.mfa.challengeAndVerify({ factorId, code: await wrongCode(secret) });
      expect(wrong.error).toMatchObject({ code: 'mfa_verification_failed' });
    }
    const right = await client.auth.mfa.challengeAndVerify({
      factorId,
      code: await totpCode(secret, Date.now() + 30_000),
    });
    expect(right.error).toBeNull();
    const wrongAgain = await client.auth.mfa.challengeAndVerify({ factorId, code: await wrongCode(secret) });
    expect(wrongAgain.error).toMatchObject({ code: 'mfa_verification_failed' });
  });
});

describe('B13 IPv6 clients are limited by their /64', () => {
  const login = (address: string) =>
    identityFetch(proxied, '/token?grant_type=password', {
      body: { email: 'nobody@example.org', password: 'wrong password' },
      headers: { 'x-forwarded-for': address },
    });

  it('counts addresses of one /64 in one bucket, and another /64 in its own', async () => {
    const statuses = [];
    for (const address of ['2001:db8:77:1::a', '2001:db8:77:1::b', '2001:db8:77:1:ffff::c', '2001:db8:77:1:1:2:3:4']) {
      statuses.push((await login(address)).status);
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
    expect((await login('2001:db8:77:2::a')).status).toBe(400);
  });
});
