// Hosted mode: the app reaches an identity service it does not run (SUPABASE_URL), here the
// embedded service started as a separate process on another port, with its own database.
import { randomBytes, randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNED_UP_MARKER } from '../../server/src/accounts/signup-checks.js';
import { UserRecord } from '../../server/src/members/user.entity.js';
import { ProfileRecord } from '../../server/src/profiles/profile.entity.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import type { TestDatabase } from '../support/database.js';
import { GOOD_PASSWORD, supabaseClient } from '../support/identity.js';
import type { IdentityProcess } from '../support/identity-process.js';
import { startIdentityProcess } from '../support/identity-process.js';
import type { MemberData, SessionData } from '../support/members.js';
import { firstError, LOGIN, MEMBER_FIELDS, SESSION_FIELDS, signUpMember } from '../support/members.js';
import type { SmtpListener } from '../support/smtp.js';
import { mailTokens, startSmtpListener } from '../support/smtp.js';

const REQUEST_RESET = 'mutation ($email: String!) { requestPasswordReset(email: $email) { message } }';
const RESET = `mutation ($input: ResetPasswordInput!) { resetPassword(input: $input) { session { ${SESSION_FIELDS} } member { ${MEMBER_FIELDS} } } }`;
const DELETE = 'mutation ($password: String!) { deleteAccount(password: $password) }';
const PROFILE = 'query ($username: String!) { profile(username: $username) { username } }';

/** The app's sign-ins per address: 10 in 5 minutes (a window no test outlasts). */
const SIGN_INS_PER_WINDOW = 10;

let identityDatabase: TestDatabase;
let identity: IdentityProcess;
let smtp: SmtpListener;
let api: TestApp;
let hostedEnv: Record<string, string>;

beforeAll(async () => {
  smtp = await startSmtpListener();
  identityDatabase = await createTestDatabase();
  const secret = randomBytes(48).toString('base64');
  identity = await startIdentityProcess({
    ...identityDatabase.env,
    AUTH_JWT_SECRET: secret,
    SMTP_URL: smtp.url,
    AUTH_SMTP_MAX_FREQUENCY: '0',
    // The hosted service limits nobody here: the app's own limit is what is tested.
    AUTH_RATE_LIMIT_TOKEN: '100000',
    AUTH_RATE_LIMIT_TOKEN_BURST: '100000',
  });
  hostedEnv = {
    SUPABASE_URL: identity.url,
    SUPABASE_ANON_KEY: identity.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: identity.serviceRoleKey,
    SUPABASE_JWT_SECRET: secret,
    SUPABASE_JWT_ISSUER: `${identity.url}/auth/v1`,
    TRUST_PROXY: 'loopback',
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    AUTH_RATE_LIMIT_TOKEN: String(SIGN_INS_PER_WINDOW),
    AUTH_RATE_LIMIT_TOKEN_BURST: String(SIGN_INS_PER_WINDOW),
  };
  api = await startTestApp(hostedEnv);
});
afterAll(async () => {
  await api.close();
  await identity.stop();
  await identityDatabase.drop();
  await smtp.close();
});

describe('the whole app in hosted mode', () => {
  it('signs up, logs in, resets a forgotten password by the mailed code and deletes the account', async () => {
    expect(api.app.identity.mode).toBe('hosted');
    const { email, member } = await signUpMember(api, { first: 'Phoebe' });
    const { uid } = member.user;
    const admin = supabaseClient(identity.url, identity.serviceRoleKey).auth.admin;
    const created = await admin.getUserById(uid);
    expect(created.data.user?.user_metadata).toMatchObject({ first: 'Phoebe', [SIGNED_UP_MARKER]: 1 });

    const login = await api.graphql<{ login: { member: MemberData } }>(LOGIN, {
      input: { email, password: GOOD_PASSWORD },
    });
    expect(login.errors).toBeUndefined();
    expect(login.data?.login.member.user.uid).toBe(uid);

    const requested = await api.graphql(REQUEST_RESET, { email });
    expect(requested.errors).toBeUndefined();
    const { otp } = mailTokens(await smtp.nextMessage(email));
    const newPassword = 'a passphrase from the mail';
    const reset = await api.graphql<{ resetPassword: { session: SessionData; member: MemberData } }>(RESET, {
      input: { email, token: otp, newPassword },
    });
    expect(reset.errors, JSON.stringify(reset.errors)).toBeUndefined();
    expect(reset.data?.resetPassword.member.user.uid).toBe(uid);
    const oldPassword = await api.graphql(LOGIN, { input: { email, password: GOOD_PASSWORD } });
    expect(firstError(oldPassword).code).toBe('INVALID_CREDENTIALS');
    const withNew = await api.graphql<{ login: { session: SessionData } }>(LOGIN, {
      input: { email, password: newPassword },
    });
    expect(withNew.errors).toBeUndefined();

    const deleted = await api.graphql(
      DELETE,
      { password: newPassword },
      { token: withNew.data?.login.session.accessToken ?? '' },
    );
    expect(deleted.errors, JSON.stringify(deleted.errors)).toBeUndefined();
    const gone = await admin.getUserById(uid);
    expect(gone.error?.status).toBe(404);
    expect(await api.dataSource.getRepository(UserRecord).existsBy({ uid })).toBe(false);
    expect(await api.dataSource.getRepository(ProfileRecord).existsBy({ uid })).toBe(false);
    expect(await api.graphql(PROFILE, { username: member.profile.username })).toMatchObject({
      data: { profile: null },
    });
  });

  it('limits sign-ins per client address itself, whatever the hosted service counts, across instances', async () => {
    // A second instance on the same Redis: the addresses' counts are shared, not per instance.
    const second = await startTestApp(hostedEnv);
    try {
      const { email } = await signUpMember(api, { first: 'Lydia' });
      // Fresh addresses each run: the counts live in the shared Redis for five minutes.
      const prefix = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
      const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
      const wrong = { input: { email, password: 'not the password at all' } };
      for (let attempt = 1; attempt <= SIGN_INS_PER_WINDOW; attempt++) {
        const instance = attempt % 2 === 0 ? api : second;
        // Other addresses of the same IPv6 /64 count as the same client.
        const answer = await instance.graphql(LOGIN, wrong, from(`${prefix}::${attempt.toString(16)}`));
        expect(firstError(answer).code, `try ${String(attempt)}`).toBe('INVALID_CREDENTIALS');
      }
      const right = { input: { email, password: GOOD_PASSWORD } };
      const refused = firstError(await api.graphql(LOGIN, right, from(`${prefix}::ffff`)));
      expect(refused.code).toBe('RATE_LIMITED');
      // Refused by the app before the identity service was asked: no identity code comes with it.
      expect(refused.identityCode).toBeUndefined();
      expect(refused.retryAfter).toBeGreaterThan(0);
      expect(firstError(await second.graphql(LOGIN, right, from(`${prefix}::1`))).code).toBe('RATE_LIMITED');
      // Another client signs in.
      const other = await api.graphql(LOGIN, right, from(`198.51.100.${String(1 + randomInt(254))}`));
      expect(other.errors).toBeUndefined();
    } finally {
      await second.close();
    }
  });
});
