import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthSessionRecord } from '../../server/src/identity/embedded/entities.js';
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
import type { ReceivedMail, SmtpListener } from '../support/smtp.js';
import { mailTokens, startSmtpListener } from '../support/smtp.js';

let smtp: SmtpListener;
/** The embedded defaults (autoconfirm on), mail over real SMTP, Supabase Auth's one-minute mail frequency. */
let api: TestApp;
/** Confirmation on. */
let strict: TestApp;

beforeAll(async () => {
  smtp = await startSmtpListener();
  const env = { SMTP_URL: smtp.url, AUTH_RATE_LIMIT_EMAIL_SENT: '1000' };
  [api, strict] = await Promise.all([startTestApp(env), startTestApp({ ...env, AUTH_AUTOCONFIRM: 'false' })]);
});
afterAll(async () => {
  await Promise.all([api.close(), strict.close()]);
  await smtp.close();
});

/** The 6-digit code of a message that carries only a code (reauthentication). */
function codeOf(mail: ReceivedMail): string {
  const code = /code: (\d{6})/.exec(mail.body)?.[1];
  if (!code) throw new Error(`no code in the mail "${mail.subject}"`);
  return code;
}

async function member(app: TestApp): Promise<string> {
  const email = uniqueEmail();
  const created = await serviceClient(app).auth.admin.createUser({
    email,
    password: GOOD_PASSWORD,
    email_confirm: true,
  });
  expect(created.error).toBeNull();
  return email;
}

const mailsTo = (email: string): ReceivedMail[] => smtp.messages.filter((message) => message.to.includes(email));

describe('POST /otp (signInWithOtp)', () => {
  it('mails a magic link that signs an existing member in, with the session in the fragment', async () => {
    const email = await member(api);
    expect(
      (await anonClient(api).auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error,
    ).toBeNull();
    const mail = await smtp.nextMessage(email);
    expect(mail.subject).toBe('Your Lampstand sign-in link');
    const { link } = mailTokens(mail);
    expect(new URL(link).searchParams.get('type')).toBe('magiclink');
    const response = await fetch(link, { redirect: 'manual' });
    expect(response.status).toBe(303);
    const fragment = new URLSearchParams(new URL(response.headers.get('location') ?? '').hash.slice(1));
    expect(fragment.get('type')).toBe('magiclink');
    expect(decodeClaims(fragment.get('access_token') ?? '')).toMatchObject({
      email,
      amr: [{ method: 'otp', timestamp: expect.any(Number) }],
    });
  });

  it('signs in with the 6-digit code read from the same mail, once', async () => {
    const email = await member(api);
    await anonClient(api).auth.signInWithOtp({ email });
    const { otp } = mailTokens(await smtp.nextMessage(email));
    const { data, error } = await anonClient(api).auth.verifyOtp({ email, token: otp, type: 'email' });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    const again = await anonClient(api).auth.verifyOtp({ email, token: otp, type: 'email' });
    expect(again.error).toMatchObject({ status: 403, code: 'otp_expired' });
  });

  it('makes an account for a new address by default (create_user), which the code then signs in', async () => {
    const email = uniqueEmail('new');
    const asked = await anonClient(api).auth.signInWithOtp({ email, options: { data: { first: 'Ruth' } } });
    expect(asked.error).toBeNull();
    const { otp } = mailTokens(await smtp.nextMessage(email));
    // Unconfirmed until the mailbox answers: nobody makes a confirmed account for another's address.
    const listed = await serviceClient(api).auth.admin.listUsers({ perPage: 1000 });
    const made = listed.data.users.find((user) => user.email === email);
    expect(made).toBeDefined();
    expect(made?.email_confirmed_at).toBeUndefined();
    const { data, error } = await anonClient(api).auth.verifyOtp({ email, token: otp, type: 'email' });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      email,
      email_confirmed_at: expect.any(String),
      user_metadata: expect.objectContaining({ first: 'Ruth' }),
    });
    // The account has no password until its owner sets one.
    const login = await anonClient(api).auth.signInWithPassword({ email, password: GOOD_PASSWORD });
    expect(login.error).toMatchObject({ code: 'invalid_credentials' });
  });

  it('takes the password someone else set on an unconfirmed account before mailing its owner the link', async () => {
    const email = uniqueEmail('pre-registered');
    // Made by someone who does not hold the mailbox, with a password of their choosing.
    const made = await serviceClient(strict).auth.admin.createUser({ email, password: GOOD_PASSWORD });
    expect(made.error).toBeNull();
    expect((await anonClient(strict).auth.signInWithOtp({ email })).error).toBeNull();
    const { otp } = mailTokens(await smtp.nextMessage(email));
    const owner = await anonClient(strict).auth.verifyOtp({ email, token: otp, type: 'email' });
    expect(owner.error).toBeNull();
    expect(owner.data.user?.email_confirmed_at).toEqual(expect.any(String));
    const stranger = await anonClient(strict).auth.signInWithPassword({ email, password: GOOD_PASSWORD });
    expect(stranger.error).toMatchObject({ code: 'invalid_credentials' });
  });

  it('with should_create_user false answers an unknown address as a known one, makes nothing and mails nothing', async () => {
    const unknown = uniqueEmail('nobody');
    const known = await member(api);
    const forUnknown = await identityFetch(api, '/otp', { body: { email: unknown, create_user: false } });
    const forKnown = await identityFetch(api, '/otp', { body: { email: known, create_user: false } });
    expect(forUnknown).toMatchObject({ status: 200, body: {} });
    expect(forKnown).toMatchObject({ status: 200, body: {} });
    await smtp.nextMessage(known);
    const listed = await serviceClient(api).auth.admin.listUsers({ perPage: 1000 });
    expect(listed.data.users.map((user) => user.email)).not.toContain(unknown);
    expect(mailsTo(unknown)).toHaveLength(0);
  });

  it('refuses a malformed address, both channels at once, and phones, with validation errors', async () => {
    const malformed = await identityFetch(api, '/otp', { body: { email: 'not-an-address' } });
    expect(malformed).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    const both = await identityFetch(api, '/otp', { body: { email: uniqueEmail(), phone: '+15555550100' } });
    expect(both).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    const phone = await identityFetch(api, '/otp', { body: { phone: '+15555550100' } });
    expect(phone).toMatchObject({ status: 400, body: { code: 'phone_provider_disabled' } });
  });

  it('B13 applies the per-user mail frequency without telling: a second link within a minute is not sent, and answered as for an unknown address', async () => {
    const email = await member(api);
    expect((await anonClient(api).auth.signInWithOtp({ email })).error).toBeNull();
    await smtp.nextMessage(email);
    const again = await identityFetch(api, '/otp', { body: { email, create_user: false } });
    const unknown = await identityFetch(api, '/otp', { body: { email: uniqueEmail('nobody'), create_user: false } });
    expect(again).toMatchObject({ status: 200, body: {} });
    expect({ status: again.status, body: again.body }).toEqual({ status: unknown.status, body: unknown.body });
    expect(mailsTo(email)).toHaveLength(1);
  });
});

describe('POST /resend', () => {
  it('mails the sign-up confirmation again, under the mail frequency limit', async () => {
    const email = uniqueEmail();
    expect((await anonClient(strict).auth.signUp({ email, password: GOOD_PASSWORD })).error).toBeNull();
    const first = mailTokens(await smtp.nextMessage(email));
    // Too soon: not sent, and answered as for an address without an account.
    const tooSoon = await identityFetch(strict, '/resend', { body: { type: 'signup', email } });
    const unknown = await identityFetch(strict, '/resend', { body: { type: 'signup', email: uniqueEmail('nobody') } });
    expect(tooSoon).toMatchObject({ status: 200, body: {} });
    expect({ status: tooSoon.status, body: tooSoon.body }).toEqual({ status: unknown.status, body: unknown.body });
    expect(mailsTo(email)).toHaveLength(1);

    // A minute later (the sent time moved back), the resend goes out and only its link works.
    await strict.dataSource.query(
      strict.dataSource.options.type === 'postgres'
        ? 'UPDATE auth_users SET confirmation_sent_at = confirmation_sent_at - 61000 WHERE email = $1'
        : 'UPDATE auth_users SET confirmation_sent_at = confirmation_sent_at - 61000 WHERE email = ?',
      [email],
    );
    expect((await anonClient(strict).auth.resend({ type: 'signup', email })).error).toBeNull();
    const second = mailTokens(await smtp.nextMessage(email));
    expect(second.otp).not.toBe(first.otp);
    const stale = await anonClient(strict).auth.verifyOtp({ email, token: first.otp, type: 'signup' });
    expect(stale.error).toMatchObject({ code: 'otp_expired' });
    const fresh = await anonClient(strict).auth.verifyOtp({ email, token: second.otp, type: 'signup' });
    expect(fresh.error).toBeNull();
  });

  it('answers {} and mails nothing for an unknown or already confirmed address', async () => {
    const unknown = uniqueEmail('nobody');
    const confirmed = await member(strict);
    for (const email of [unknown, confirmed]) {
      const answer = await identityFetch(strict, '/resend', { body: { type: 'signup', email } });
      expect(answer).toMatchObject({ status: 200, body: {} });
    }
    expect(mailsTo(unknown)).toHaveLength(0);
    expect(mailsTo(confirmed)).toHaveLength(0);
  });

  it('mails a pending email change again to the new address', async () => {
    const email = await member(api);
    const client = anonClient(api);
    await client.auth.signInWithPassword({ email, password: GOOD_PASSWORD });
    const newEmail = uniqueEmail('new');
    expect((await client.auth.updateUser({ email: newEmail })).error).toBeNull();
    await smtp.nextMessage(newEmail);
    await smtp.nextMessage(email);
    const tooSoon = await identityFetch(api, '/resend', { body: { type: 'email_change', email } });
    const unknown = await identityFetch(api, '/resend', {
      body: { type: 'email_change', email: uniqueEmail('nobody') },
    });
    expect(tooSoon).toMatchObject({ status: 200, body: {} });
    expect({ status: tooSoon.status, body: tooSoon.body }).toEqual({ status: unknown.status, body: unknown.body });
    expect(mailsTo(newEmail)).toHaveLength(1);

    // A minute later (the sent time moved back), it goes out again.
    await api.dataSource.query(
      api.dataSource.options.type === 'postgres'
        ? 'UPDATE auth_users SET email_change_sent_at = email_change_sent_at - 61000 WHERE email = $1'
        : 'UPDATE auth_users SET email_change_sent_at = email_change_sent_at - 61000 WHERE email = ?',
      [email],
    );
    expect((await anonClient(api).auth.resend({ type: 'email_change', email })).error).toBeNull();
    await smtp.nextMessage(newEmail);
    expect(mailsTo(newEmail)).toHaveLength(2);
  });

  it('refuses an unknown type', async () => {
    const answer = await identityFetch(api, '/resend', { body: { type: 'recovery', email: uniqueEmail() } });
    expect(answer).toMatchObject({
      status: 400,
      body: {
        code: 'validation_failed',
        message: 'Missing one of these types: signup, email_change, sms, phone_change',
      },
    });
  });
});

describe('GET /reauthenticate and re-authentication for a password change', () => {
  async function oldSession(): Promise<{ email: string; client: ReturnType<typeof anonClient> }> {
    const email = await member(strict);
    const client = anonClient(strict);
    const { data, error } = await client.auth.signInWithPassword({ email, password: GOOD_PASSWORD });
    expect(error).toBeNull();
    // The session signed in over a day ago.
    const longAgo = Math.floor(Date.now() / 1000) - 25 * 60 * 60;
    await strict.dataSource.manager.update(
      AuthSessionRecord,
      { userId: data.user?.id ?? '' },
      { createdAt: new Date(longAgo * 1000), amr: [{ method: 'password', timestamp: longAgo }] },
    );
    return { email, client };
  }

  it('needs the mailed nonce to change the password from a session signed in long ago, and the nonce works once', async () => {
    const { email, client } = await oldSession();
    const without = await client.auth.updateUser({ password: 'a new password for the strict app' });
    expect(without.error).toMatchObject({ status: 400, code: 'reauthentication_needed' });

    expect((await client.auth.reauthenticate()).error).toBeNull();
    const nonce = codeOf(await smtp.nextMessage(email));
    const wrong = await client.auth.updateUser({
      password: 'a new password for the strict app',
      nonce: '000000' === nonce ? '111111' : '000000',
    });
    expect(wrong.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' });
    const changed = await client.auth.updateUser({ password: 'a new password for the strict app', nonce });
    expect(changed.error).toBeNull();
    const reused = await client.auth.updateUser({ password: 'yet another password for the app', nonce });
    expect(reused.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' });
    expect(
      (await anonClient(strict).auth.signInWithPassword({ email, password: 'a new password for the strict app' }))
        .error,
    ).toBeNull();
  });

  it('lets a session signed in minutes ago change the password without a nonce', async () => {
    const email = await member(strict);
    const client = anonClient(strict);
    await client.auth.signInWithPassword({ email, password: GOOD_PASSWORD });
    expect((await client.auth.updateUser({ password: 'fresh session new password' })).error).toBeNull();
  });

  it('keeps the password when the nonce is missing, and needs a signed-in caller', async () => {
    const { email, client } = await oldSession();
    await client.auth.updateUser({ password: 'a password that never lands' });
    expect((await anonClient(strict).auth.signInWithPassword({ email, password: GOOD_PASSWORD })).error).toBeNull();
    const anonymous = await identityFetch(strict, '/reauthenticate');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 'no_authorization' });
  });
});

describe('POST /invite (auth.admin.inviteUserByEmail)', () => {
  it('makes an account without a password and mails a link through which the invitee sets one', async () => {
    const email = uniqueEmail('invitee');
    const { data, error } = await serviceClient(api).auth.admin.inviteUserByEmail(email, { data: { first: 'Lydia' } });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email, invited_at: expect.any(String), user_metadata: { first: 'Lydia' } });
    expect(data.user).not.toHaveProperty('email_confirmed_at');

    const mail = await smtp.nextMessage(email);
    expect(mail.subject).toBe('You are invited to Lampstand');
    const { link } = mailTokens(mail);
    const response = await fetch(link, { redirect: 'manual' });
    const fragment = new URLSearchParams(new URL(response.headers.get('location') ?? '').hash.slice(1));
    expect(fragment.get('type')).toBe('invite');
    const invitee = anonClient(api);
    const session = await invitee.auth.setSession({
      access_token: fragment.get('access_token') ?? '',
      refresh_token: fragment.get('refresh_token') ?? '',
    });
    expect(session.error).toBeNull();
    expect((await invitee.auth.updateUser({ password: 'the invitee chose this' })).error).toBeNull();
    const login = await anonClient(api).auth.signInWithPassword({ email, password: 'the invitee chose this' });
    expect(login.error).toBeNull();
    expect(login.data.user?.email_confirmed_at).toEqual(expect.any(String));
  });

  it('reuses an unconfirmed account without the password its maker set', async () => {
    const email = uniqueEmail('invited-again');
    expect((await serviceClient(strict).auth.admin.createUser({ email, password: GOOD_PASSWORD })).error).toBeNull();
    const invited = await serviceClient(strict).auth.admin.inviteUserByEmail(email);
    expect(invited.error).toBeNull();
    const { link } = mailTokens(await smtp.nextMessage(email));
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(303);
    const stranger = await anonClient(strict).auth.signInWithPassword({ email, password: GOOD_PASSWORD });
    expect(stranger.error).toMatchObject({ code: 'invalid_credentials' });
  });

  it('refuses a confirmed address with email_exists and anyone but an admin with not_admin', async () => {
    const email = await member(api);
    const taken = await serviceClient(api).auth.admin.inviteUserByEmail(email);
    expect(taken.error).toMatchObject({ status: 422, code: 'email_exists' });
    const anonymous = await anonClient(api).auth.admin.inviteUserByEmail(uniqueEmail());
    expect(anonymous.error).toMatchObject({ status: 403, code: 'not_admin' });
    expect(mailsTo(email)).toHaveLength(0);
  });
});
