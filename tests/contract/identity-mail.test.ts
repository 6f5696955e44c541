import { createHash } from 'node:crypto';
import { AuthApiError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import {
  GOOD_PASSWORD,
  anonClient,
  decodeClaims,
  identityFetch,
  serviceClient,
  uniqueEmail,
} from '../support/identity.js';
import type { SmtpListener } from '../support/smtp.js';
import { mailTokens, startSmtpListener } from '../support/smtp.js';
import { compareTimes, expectSameTime, TIMED_ROUNDS } from '../support/timing.js';

let smtp: SmtpListener;
/** Confirmation on (as hosted Supabase), mail over real SMTP, no per-user mail frequency limit. */
let api: TestApp;
/** The same with Supabase Auth's default one-minute mail frequency. */
let throttled: TestApp;

beforeAll(async () => {
  smtp = await startSmtpListener();
  // The hourly mail limit (30 by default, tested in identity-limits) would hold back this file's later mails.
  const limits = { AUTH_SMTP_MAX_FREQUENCY: '0', AUTH_RATE_LIMIT_EMAIL_SENT: '1000' };
  const env = { SMTP_URL: smtp.url, AUTH_AUTOCONFIRM: 'false', ...limits };
  [api, throttled] = await Promise.all([startTestApp(env), startTestApp({ ...env, AUTH_SMTP_MAX_FREQUENCY: '60' })]);
});
afterAll(async () => {
  await Promise.all([api.close(), throttled.close()]);
  await smtp.close();
});

describe('sign-up with confirmation on', () => {
  it('§2.1 answers a bare user without a session and mails a confirmation', async () => {
    const email = uniqueEmail();
    const { data, error } = await anonClient(api).auth.signUp({ email, password: GOOD_PASSWORD });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({
      email,
      confirmation_sent_at: expect.any(String),
      identities: [expect.objectContaining({ provider: 'email' })],
    });
    expect(data.user).not.toHaveProperty('email_confirmed_at');
    const mail = await smtp.nextMessage(email);
    expect(mail.subject).toBe('Confirm your Lampstand account');
    expect(mail.body).toContain('text/html');
  });

  it('§2.2 refuses sign-in before confirmation with email_not_confirmed, after checking the password', async () => {
    const email = uniqueEmail();
    await anonClient(api).auth.signUp({ email, password: GOOD_PASSWORD });
    await smtp.nextMessage(email);
    const right = await anonClient(api).auth.signInWithPassword({ email, password: GOOD_PASSWORD });
    expect(right.error).toMatchObject({ status: 400, code: 'email_not_confirmed', message: 'Email not confirmed' });
    const wrong = await anonClient(api).auth.signInWithPassword({ email, password: 'not the password' });
    expect(wrong.error).toMatchObject({ code: 'invalid_credentials' });
  });

  it('§2.6 confirms with the mailed code through verifyOtp, then signs in', async () => {
    const email = uniqueEmail();
    await anonClient(api).auth.signUp({ email, password: GOOD_PASSWORD });
    const { otp } = mailTokens(await smtp.nextMessage(email));
    const wrong = await anonClient(api).auth.verifyOtp({
      type: 'signup',
      email,
      token: otp === '000000' ? '111111' : '000000',
    });
    expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired', message: 'Token has expired or is invalid' });
    const { data, error } = await anonClient(api).auth.verifyOtp({ type: 'signup', email, token: otp });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      email,
      email_confirmed_at: expect.any(String),
      user_metadata: { email_verified: true },
    });
    expect(decodeClaims(data.session?.access_token ?? '').amr).toEqual([
      { method: 'otp', timestamp: expect.any(Number) },
    ]);
    expect((await anonClient(api).auth.signInWithPassword({ email, password: GOOD_PASSWORD })).error).toBeNull();
    const again = await anonClient(api).auth.verifyOtp({ type: 'signup', email, token: otp });
    expect(again.error).toMatchObject({ code: 'otp_expired' });
  });

  it('§2.6 confirms through the mailed link (GET /verify) with a 303 carrying the session in the fragment', async () => {
    const email = uniqueEmail();
    await anonClient(api).auth.signUp({
      email,
      password: GOOD_PASSWORD,
      options: { emailRedirectTo: `${api.url}/welcome` },
    });
    const { link } = mailTokens(await smtp.nextMessage(email));
    expect(link.startsWith(`${api.url}/auth/v1/verify?token=`)).toBe(true);
    const response = await fetch(link, { redirect: 'manual' });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(`${api.url}/welcome`);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('token_type')).toBe('bearer');
    expect(fragment.get('type')).toBe('signup');
    expect(fragment.get('refresh_token')).toMatch(/^[a-z0-9]{12}$/);
    expect(decodeClaims(fragment.get('access_token') ?? '').email).toBe(email);

    const reused = await fetch(link, { redirect: 'manual' });
    const error = new URLSearchParams(new URL(reused.headers.get('location') ?? '').hash.slice(1));
    expect(error.get('error')).toBe('access_denied');
    expect(error.get('error_code')).toBe('otp_expired');
    expect(error.get('error_description')).toBe('Email link is invalid or has expired');
  });

  it('refuses a link whose redirect_to carries CR/LF before spending its token', async () => {
    const email = uniqueEmail();
    await anonClient(api).auth.signUp({ email, password: GOOD_PASSWORD });
    const { link } = mailTokens(await smtp.nextMessage(email));
    const forged = new URL(link);
    forged.searchParams.set('redirect_to', `${api.url}/welcome\r\nSet-Cookie: stolen=1`);
    const refused = await fetch(forged, { redirect: 'manual' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error_code: 'validation_failed' });
    const honest = await fetch(link, { redirect: 'manual' });
    expect(honest.status).toBe(303);
    expect(new URLSearchParams(new URL(honest.headers.get('location') ?? '').hash.slice(1)).get('token_type')).toBe(
      'bearer',
    );
  });

  it('§2.1 §6.4 answers a confirmed address with a disguised user (no identities), the same shape as a new one', async () => {
    const email = uniqueEmail();
    await anonClient(api).auth.signUp({ email, password: GOOD_PASSWORD });
    const { otp } = mailTokens(await smtp.nextMessage(email));
    await anonClient(api).auth.verifyOtp({ type: 'signup', email, token: otp });

    const again = await anonClient(api).auth.signUp({ email, password: GOOD_PASSWORD });
    const fresh = await anonClient(api).auth.signUp({ email: uniqueEmail(), password: GOOD_PASSWORD });
    expect(again.error).toBeNull();
    expect(again.data.session).toBeNull();
    expect(again.data.user?.identities).toEqual([]);
    expect(Object.keys(again.data.user ?? {}).sort()).toEqual(Object.keys(fresh.data.user ?? {}).sort());
  });

  it('§2.1 re-sends the confirmation to an unconfirmed address, limited by SMTP_MAX_FREQUENCY', async () => {
    const email = uniqueEmail();
    await anonClient(throttled).auth.signUp({ email, password: GOOD_PASSWORD });
    await smtp.nextMessage(email);
    const { error } = await anonClient(throttled).auth.signUp({ email, password: GOOD_PASSWORD });
    expect(error).toBeInstanceOf(AuthApiError);
    expect(error).toMatchObject({
      status: 429,
      code: 'over_email_send_rate_limit',
      message: expect.stringMatching(/^For security purposes, you can only request this after \d+ seconds\.$/),
    });
  });
});

describe('password recovery', () => {
  it('burns a mailed code after a handful of wrong tries, and keeps it through fewer', async () => {
    const wrongCode = (otp: string) => String((Number(otp) + 1) % 1_000_000).padStart(6, '0');
    const recoveryCode = async (email: string) => {
      await anonClient(api).auth.resetPasswordForEmail(email);
      return mailTokens(await smtp.nextMessage(email)).otp;
    };
    const [burned, kept] = [uniqueEmail(), uniqueEmail()];
    for (const email of [burned, kept]) {
      await anonClient(api).auth.signUp({ email, password: GOOD_PASSWORD });
      await smtp.nextMessage(email);
    }

    const burnedCode = await recoveryCode(burned);
    for (let attempt = 0; attempt < 5; attempt++) {
      const wrong = await anonClient(api).auth.verifyOtp({
        type: 'recovery',
        email: burned,
        token: wrongCode(burnedCode),
      });
      expect(wrong.error).toMatchObject({ code: 'otp_expired' });
    }
    const tooLate = await anonClient(api).auth.verifyOtp({ type: 'recovery', email: burned, token: burnedCode });
    expect(tooLate.error).toMatchObject({ code: 'otp_expired' });

    const keptCode = await recoveryCode(kept);
    for (let attempt = 0; attempt < 4; attempt++) {
      await anonClient(api).auth.verifyOtp({ type: 'recovery', email: kept, token: wrongCode(keptCode) });
    }
    const inTime = await anonClient(api).auth.verifyOtp({ type: 'recovery', email: kept, token: keptCode });
    expect(inTime.error).toBeNull();
  });

  it('counts tries on the code itself: five wrong ones across two server instances burn it, a new code works', async () => {
    // Two instances on one database and no Redis: only a count kept with the code sees every try.
    const database = await createTestDatabase();
    // The hourly mail limit (30 by default, tested in identity-limits) would hold back this file's later mails.
    const env = {
      SMTP_URL: smtp.url,
      AUTH_AUTOCONFIRM: 'false',
      AUTH_SMTP_MAX_FREQUENCY: '0',
      AUTH_RATE_LIMIT_EMAIL_SENT: '1000',
    };
    const [first, second] = [await startTestApp(env, {}, { database }), await startTestApp(env, {}, { database })];
    try {
      const email = uniqueEmail();
      await anonClient(first).auth.signUp({ email, password: GOOD_PASSWORD });
      await smtp.nextMessage(email);
      await anonClient(first).auth.resetPasswordForEmail(email);
      const { otp, tokenHash } = mailTokens(await smtp.nextMessage(email));
      const wrong = (offset: number) => String((Number(otp) + offset) % 1_000_000).padStart(6, '0');
      // Tries at once all count: three on one instance, two on the other.
      const tries = await Promise.all(
        [first, first, first, second, second].map((instance, index) =>
          anonClient(instance).auth.verifyOtp({ type: 'recovery', email, token: wrong(index + 1) }),
        ),
      );
      for (const { error } of tries) {
        expect(error).toMatchObject({ status: 403, code: 'otp_expired', message: 'Token has expired or is invalid' });
      }

      for (const instance of [first, second]) {
        const right = await anonClient(instance).auth.verifyOtp({ type: 'recovery', email, token: otp });
        expect(right.error).toMatchObject({
          status: 403,
          code: 'otp_expired',
          message: 'Token has expired or is invalid',
        });
      }
      const link = await anonClient(second).auth.verifyOtp({ type: 'recovery', token_hash: tokenHash });
      expect(link.error).toMatchObject({ status: 403, code: 'otp_expired' });

      await anonClient(second).auth.resetPasswordForEmail(email);
      const fresh = mailTokens(await smtp.nextMessage(email)).otp;
      const renewed = await anonClient(first).auth.verifyOtp({ type: 'recovery', email, token: fresh });
      expect(renewed.error).toBeNull();
      expect(renewed.data.user?.email).toBe(email);
    } finally {
      await Promise.all([first.close(), second.close()]);
      await database.drop();
    }
  });

  it('takes no link token made from the address and a code: the mailed link is not derived from the code', async () => {
    const email = uniqueEmail();
    await anonClient(api).auth.signUp({ email, password: GOOD_PASSWORD });
    await smtp.nextMessage(email);
    await anonClient(api).auth.resetPasswordForEmail(email);
    const { otp, tokenHash } = mailTokens(await smtp.nextMessage(email));
    const guessed = createHash('sha224')
      .update(email + otp)
      .digest('hex');
    expect(tokenHash).toMatch(/^[0-9a-f]{56}$/);

    const made = await anonClient(api).auth.verifyOtp({ type: 'recovery', token_hash: guessed });
    expect(made.error).toMatchObject({
      status: 403,
      code: 'otp_expired',
      message: 'Email link is invalid or has expired',
    });
    const mailed = await anonClient(api).auth.verifyOtp({ type: 'recovery', token_hash: tokenHash });
    expect(mailed.error).toBeNull();
  });

  it('§2.5 §2.6 resets a password with the code read from the mail', async () => {
    const email = uniqueEmail();
    await anonClient(api).auth.signUp({ email, password: GOOD_PASSWORD });
    await smtp.nextMessage(email);
    const { data, error } = await anonClient(api).auth.resetPasswordForEmail(email, { redirectTo: `${api.url}/reset` });
    expect(error).toBeNull();
    expect(data).toEqual({});
    const mail = await smtp.nextMessage(email);
    expect(mail.subject).toBe('Reset your Lampstand password');
    const { otp, link, tokenHash } = mailTokens(mail);
    expect(link).toBe(`${api.url}/reset?token_hash=${tokenHash}&type=recovery`);

    const client = anonClient(api);
    const verified = await client.auth.verifyOtp({ type: 'recovery', email, token: otp });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email_confirmed_at).toEqual(expect.any(String));
    expect((await client.auth.updateUser({ password: 'my recovered passphrase' })).error).toBeNull();
    expect(
      (await anonClient(api).auth.signInWithPassword({ email, password: 'my recovered passphrase' })).error,
    ).toBeNull();
  });

  it('§2.5 §6.4 answers an unknown address exactly like a known one, and sends nothing', async () => {
    const unknown = uniqueEmail('nobody');
    const { data, error } = await anonClient(api).auth.resetPasswordForEmail(unknown);
    expect(error).toBeNull();
    expect(data).toEqual({});
    await expect(smtp.nextMessage(unknown, 300)).rejects.toThrow(/no mail/);
  });

  it('§6.4 B10 answers known and unknown addresses in the same time (median difference within 20 ms)', async () => {
    const known: string[] = [];
    for (let index = 0; index <= TIMED_ROUNDS; index++) {
      const email = uniqueEmail('timed');
      await serviceClient(api).auth.admin.createUser({ email, password: GOOD_PASSWORD, email_confirm: true });
      known.push(email);
    }
    const recover = async (email: string) => {
      const response = await identityFetch(api, '/recover', { body: { email } });
      expect(response).toMatchObject({ status: 200, body: {} });
    };
    const comparison = await compareTimes(TIMED_ROUNDS, {
      known: (index) => recover(known[index] ?? ''),
      unknown: () => recover(uniqueEmail('nobody')),
    });
    expectSameTime(comparison, 20);
  });

  it('§2.5 B13 limits recovery mails per user without telling: the second is not sent, and answered as for an unknown address', async () => {
    const email = uniqueEmail();
    await anonClient(throttled).auth.signUp({ email, password: GOOD_PASSWORD });
    await smtp.nextMessage(email);
    expect((await anonClient(throttled).auth.resetPasswordForEmail(email)).error).toBeNull();
    await smtp.nextMessage(email);
    const second = await identityFetch(throttled, '/recover', { body: { email } });
    const unknown = await identityFetch(throttled, '/recover', { body: { email: uniqueEmail('nobody') } });
    expect(second).toMatchObject({ status: 200, body: {} });
    expect({ status: second.status, body: second.body }).toEqual({ status: unknown.status, body: unknown.body });
    expect(smtp.messages.filter((message) => message.to.includes(email))).toHaveLength(2);
  });
});

describe('email change', () => {
  it('§2.4 §2.6 changes the address only once both mailed links are followed (secure email change)', async () => {
    const email = uniqueEmail('old');
    const newEmail = uniqueEmail('new');
    await anonClient(api).auth.signUp({ email, password: GOOD_PASSWORD });
    const { otp } = mailTokens(await smtp.nextMessage(email));
    const client = anonClient(api);
    await client.auth.verifyOtp({ type: 'signup', email, token: otp });

    const { data, error } = await client.auth.updateUser({ email: newEmail });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email, new_email: newEmail, email_change_sent_at: expect.any(String) });
    const toNew = mailTokens(await smtp.nextMessage(newEmail));
    const toCurrent = mailTokens(await smtp.nextMessage(email));

    const first = await identityFetch(api, '/verify', {
      body: { type: 'email_change', token_hash: toCurrent.tokenHash },
    });
    expect(first.body).toEqual({
      msg: 'Confirmation link accepted. Please proceed to confirm link sent to the other email',
      code: '200',
    });
    const second = await anonClient(api).auth.verifyOtp({ type: 'email_change', token_hash: toNew.tokenHash });
    expect(second.error).toBeNull();
    expect(second.data.user).toMatchObject({ email: newEmail });
    expect(second.data.user).not.toHaveProperty('new_email');
    expect(
      (await anonClient(api).auth.signInWithPassword({ email: newEmail, password: GOOD_PASSWORD })).error,
    ).toBeNull();
  });

  it('§2.4 refuses an address that another account has with email_exists', async () => {
    const taken = uniqueEmail('taken');
    await anonClient(api).auth.signUp({ email: taken, password: GOOD_PASSWORD });
    const email = uniqueEmail();
    await anonClient(api).auth.signUp({ email, password: GOOD_PASSWORD });
    const { otp } = mailTokens(await smtp.nextMessage(email));
    const client = anonClient(api);
    await client.auth.verifyOtp({ type: 'signup', email, token: otp });
    const { error } = await client.auth.updateUser({ email: taken });
    expect(error).toMatchObject({ status: 422, code: 'email_exists' });
  });

  it('§2.6 answers email_exists when the new address was taken between the request and its confirmation', async () => {
    const email = uniqueEmail('old');
    const newEmail = uniqueEmail('contested');
    await anonClient(api).auth.signUp({ email, password: GOOD_PASSWORD });
    const client = anonClient(api);
    await client.auth.verifyOtp({ type: 'signup', email, token: mailTokens(await smtp.nextMessage(email)).otp });
    expect((await client.auth.updateUser({ email: newEmail })).error).toBeNull();
    const toNew = mailTokens(await smtp.nextMessage(newEmail));
    const toCurrent = mailTokens(await smtp.nextMessage(email));

    // Someone else signs up with the address before the change is confirmed.
    expect((await anonClient(api).auth.signUp({ email: newEmail, password: GOOD_PASSWORD })).error).toBeNull();
    await smtp.nextMessage(newEmail);
    const first = await identityFetch(api, '/verify', {
      body: { type: 'email_change', token_hash: toCurrent.tokenHash },
    });
    expect(first.status).toBe(200);
    const second = await identityFetch(api, '/verify', { body: { type: 'email_change', token_hash: toNew.tokenHash } });
    expect(second.status).toBe(422);
    expect(second.body).toEqual({
      code: 'email_exists',
      message: 'A user with this email address has already been registered',
    });

    // The link, followed in a browser, lands with the same error in the fragment.
    const followed = await fetch(toNew.link, { redirect: 'manual' });
    expect(followed.status).toBe(303);
    const fragment = new URLSearchParams(new URL(followed.headers.get('location') ?? '').hash.slice(1));
    expect(fragment.get('error_code')).toBe('email_exists');
    // The account keeps its address and its password.
    expect((await anonClient(api).auth.signInWithPassword({ email, password: GOOD_PASSWORD })).error).toBeNull();
  });
});
