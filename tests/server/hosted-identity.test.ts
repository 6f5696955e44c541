// Hosted mode: the app reaches an identity service it does not run (SUPABASE_URL), here the
// embedded service started as a separate process on another port, with its own database.
import { randomBytes } from 'node:crypto';
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
  api = await startTestApp({
    SUPABASE_URL: identity.url,
    SUPABASE_ANON_KEY: identity.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: identity.serviceRoleKey,
    SUPABASE_JWT_SECRET: secret,
    SUPABASE_JWT_ISSUER: `${identity.url}/auth/v1`,
    TRUST_PROXY: 'loopback',
    AUTH_RATE_LIMIT_TOKEN: String(SIGN_INS_PER_WINDOW),
    AUTH_RATE_LIMIT_TOKEN_BURST: String(SIGN_INS_PER_WINDOW),
  });
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

  it('limits sign-ins per client address itself, whatever the hosted service counts', async () => {
    const { email } = await signUpMember(api, { first: 'Lydia' });
    const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
    const wrong = { input: { email, password: 'not the password at all' } };
    for (let attempt = 1; attempt <= SIGN_INS_PER_WINDOW; attempt++) {
      expect(firstError(await api.graphql(LOGIN, wrong, from('203.0.113.7'))).code, `try ${String(attempt)}`).toBe(
        'INVALID_CREDENTIALS',
      );
    }
    const refused = firstError(
      await api.graphql(LOGIN, { input: { email, password: GOOD_PASSWORD } }, from('203.0.113.7')),
    );
    expect(refused.code).toBe('RATE_LIMITED');
    // Refused by the app before the identity service was asked: no identity code comes with it.
    expect(refused.identityCode).toBeUndefined();
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    // Another address signs in; another address of the same IPv6 /64 does not dodge the limit.
    const other = await api.graphql(LOGIN, { input: { email, password: GOOD_PASSWORD } }, from('203.0.113.8'));
    expect(other.errors).toBeUndefined();
    for (let attempt = 1; attempt <= SIGN_INS_PER_WINDOW; attempt++) {
      await api.graphql(LOGIN, wrong, from(`2001:db8:5::${attempt.toString(16)}`));
    }
    expect(firstError(await api.graphql(LOGIN, wrong, from('2001:db8:5::ffff'))).code).toBe('RATE_LIMITED');
  });
});
