import { createClient } from '@supabase/supabase-js';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import {
  GOOD_PASSWORD,
  anonClient,
  decodeClaims,
  identityFetch,
  identityKeys,
  uniqueEmail,
} from '../support/identity.js';
import type { SmtpListener } from '../support/smtp.js';
import { mailTokens, startSmtpListener } from '../support/smtp.js';

let smtp: SmtpListener;
/** Confirmation on, mail over real SMTP, no per-user mail frequency limit. */
let api: TestApp;

beforeAll(async () => {
  smtp = await startSmtpListener();
  api = await startTestApp({
    SMTP_URL: smtp.url,
    AUTH_AUTOCONFIRM: 'false',
    AUTH_SMTP_MAX_FREQUENCY: '0',
    AUTH_RATE_LIMIT_EMAIL_SENT: '1000',
  });
});
afterAll(async () => {
  await api.close();
  await smtp.close();
});

/** supabase-js as Supabase's guides set it up for server-side and mobile apps: the PKCE flow. */
function pkceClient(): SupabaseClient {
  return createClient(api.url, identityKeys(api).anonKey, {
    auth: { flowType: 'pkce', persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

const landing = (): string => `${api.url}/email-confirmed`;

/** Follows an emailed link as a browser would, and returns where it was sent. */
async function follow(link: string): Promise<URL> {
  const response = await fetch(link, { redirect: 'manual' });
  expect(response.status).toBe(303);
  return new URL(response.headers.get('location') ?? '');
}

/** Follows the link of the next mail to `email` and returns the `code` it hands to the page. */
async function codeFromMail(email: string): Promise<string> {
  const { link, tokenHash } = mailTokens(await smtp.nextMessage(email));
  expect(tokenHash.startsWith('pkce_')).toBe(true);
  return codeFromMailLink(link);
}

/** Follows a PKCE link and returns the `code` it hands to the page (never a session). */
async function codeFromMailLink(link: string): Promise<string> {
  const target = await follow(link);
  expect(target.hash).not.toContain('access_token');
  const code = target.searchParams.get('code');
  if (!code) throw new Error(`no code in ${target.toString()}`);
  return code;
}

async function confirmedMember(): Promise<{ email: string }> {
  const email = uniqueEmail();
  const client = pkceClient();
  expect((await client.auth.signUp({ email, password: GOOD_PASSWORD })).error).toBeNull();
  const code = await codeFromMail(email);
  expect((await client.auth.exchangeCodeForSession(code)).error).toBeNull();
  return { email };
}

describe('PKCE flow (supabase-js flowType: pkce)', () => {
  it('confirms a sign-up: the link hands the page a code, which the same client exchanges for a session', async () => {
    const email = uniqueEmail();
    const client = pkceClient();
    const signUp = await client.auth.signUp({
      email,
      password: GOOD_PASSWORD,
      options: { emailRedirectTo: landing() },
    });
    expect(signUp.error).toBeNull();
    expect(signUp.data.session).toBeNull();

    const code = await codeFromMail(email);
    const { data, error } = await client.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.email_confirmed_at).toEqual(expect.any(String));
    expect(decodeClaims(data.session?.access_token ?? '')).toMatchObject({
      sub: data.user?.id,
      aal: 'aal1',
      amr: [{ method: 'email/signup', timestamp: expect.any(Number) }],
    });
    expect((await anonClient(api).auth.signInWithPassword({ email, password: GOOD_PASSWORD })).error).toBeNull();
  });

  it('recovers a password: code, session, new password', async () => {
    const { email } = await confirmedMember();
    const client = pkceClient();
    expect(
      (await client.auth.resetPasswordForEmail(email, { redirectTo: `${api.url}/reset-password` })).error,
    ).toBeNull();
    const code = await codeFromMail(email);
    const exchanged = await client.auth.exchangeCodeForSession(code);
    expect(exchanged.error).toBeNull();
    expect(decodeClaims(exchanged.data.session?.access_token ?? '').amr).toEqual([
      { method: 'recovery', timestamp: expect.any(Number) },
    ]);
    const newPassword = 'a brand new password for recovery';
    expect((await client.auth.updateUser({ password: newPassword })).error).toBeNull();
    expect((await anonClient(api).auth.signInWithPassword({ email, password: newPassword })).error).toBeNull();
  });

  it('signs in with a magic link', async () => {
    const { email } = await confirmedMember();
    const client = pkceClient();
    expect((await client.auth.signInWithOtp({ email, options: { emailRedirectTo: landing() } })).error).toBeNull();
    const code = await codeFromMail(email);
    const { data, error } = await client.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(decodeClaims(data.session?.access_token ?? '').amr).toEqual([
      { method: 'magiclink', timestamp: expect.any(Number) },
    ]);
  });

  it('changes the email address once both links are followed', async () => {
    const { email } = await confirmedMember();
    const client = pkceClient();
    expect((await client.auth.signInWithPassword({ email, password: GOOD_PASSWORD })).error).toBeNull();
    const newEmail = uniqueEmail('new');
    expect((await client.auth.updateUser({ email: newEmail })).error).toBeNull();

    const toCurrent = await follow(mailTokens(await smtp.nextMessage(email)).link);
    expect(toCurrent.searchParams.get('message')).toMatch(/Confirmation link accepted/);
    const code = await codeFromMail(newEmail);
    const { data, error } = await client.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.user?.email).toBe(newEmail);
    expect(decodeClaims(data.session?.access_token ?? '').amr).toEqual([
      { method: 'email_change', timestamp: expect.any(Number) },
    ]);
  });

  it('exchanges a code once: a second use is refused with flow_state_not_found', async () => {
    const { email } = await confirmedMember();
    const client = pkceClient();
    await client.auth.signInWithOtp({ email });
    const code = await codeFromMail(email);
    expect((await client.auth.exchangeCodeForSession(code)).error).toBeNull();

    const again = await pkceClient().auth.signInWithOtp({ email });
    expect(again.error).toBeNull();
    await smtp.nextMessage(email);
    const replay = await identityFetch(api, '/token?grant_type=pkce', {
      body: { auth_code: code, code_verifier: 'x'.repeat(43) },
    });
    expect(replay.status).toBe(404);
    expect(replay.body).toMatchObject({ code: 'flow_state_not_found' });
  });

  it('refuses a wrong code verifier with bad_code_verifier, and the right one still works after', async () => {
    const { email } = await confirmedMember();
    const client = pkceClient();
    await client.auth.signInWithOtp({ email });
    const code = await codeFromMail(email);
    const wrong = await identityFetch(api, '/token?grant_type=pkce', {
      body: { auth_code: code, code_verifier: 'not-the-verifier-'.padEnd(64, 'x') },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      code: 'bad_code_verifier',
      message: 'code challenge does not match previously saved code verifier',
    });
    expect((await client.auth.exchangeCodeForSession(code)).error).toBeNull();
  });

  it('accepts the plain method, and refuses malformed challenges before mailing anything', async () => {
    const { email } = await confirmedMember();
    const verifier = 'plain-verifier-'.padEnd(50, 'p');
    const asked = await identityFetch(api, '/otp', {
      body: { email, code_challenge: verifier, code_challenge_method: 'plain' },
    });
    expect(asked.status).toBe(200);
    const code = await codeFromMail(email);
    const exchanged = await identityFetch(api, '/token?grant_type=pkce', {
      body: { auth_code: code, code_verifier: verifier },
    });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body).toMatchObject({ access_token: expect.any(String), user: { email } });

    const short = await identityFetch(api, '/otp', {
      body: { email, code_challenge: 'too-short', code_challenge_method: 's256' },
    });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({
      code: 'validation_failed',
      message: 'code challenge has to be between 43 and 128 characters',
    });
    const halfway = await identityFetch(api, '/recover', { body: { email, code_challenge: verifier } });
    expect(halfway.body).toEqual({
      code: 'validation_failed',
      message: 'PKCE flow requires code_challenge_method and code_challenge',
    });
    const missing = await identityFetch(api, '/token?grant_type=pkce', { body: { auth_code: code } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'validation_failed' });
    expect(smtp.messages.filter((message) => message.to.includes(email))).toHaveLength(2);
  });

  it('gives no session for a PKCE link whose pkce_ prefix was removed: only the verifier leads to one', async () => {
    const { email } = await confirmedMember();
    const client = pkceClient();
    await client.auth.signInWithOtp({ email, options: { emailRedirectTo: landing() } });
    const { link } = mailTokens(await smtp.nextMessage(email));
    const stripped = await follow(link.replace('token=pkce_', 'token='));
    expect(stripped.hash).not.toContain('access_token');
    expect(stripped.hash).toContain('error_code=otp_expired');
    const code = await codeFromMailLink(link);
    expect((await client.auth.exchangeCodeForSession(code)).error).toBeNull();
  });

  it('answers an expired or spent link with the error in the query, where the PKCE page looks', async () => {
    const { email } = await confirmedMember();
    await pkceClient().auth.signInWithOtp({ email, options: { emailRedirectTo: landing() } });
    const { link } = mailTokens(await smtp.nextMessage(email));
    await follow(link);
    const second = await follow(link);
    expect(second.searchParams.get('error_code')).toBe('otp_expired');
    expect(second.searchParams.get('code')).toBeNull();
    expect(second.hash).toContain('error_code=otp_expired');
  });
});
