import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthSessionRecord, AuthUserRecord } from '../../../server/src/identity/embedded/entities.js';
import { UserRecord } from '../../../server/src/members/user.entity.js';
import type { TestApp } from '../../support/app.js';
import { startTestApp } from '../../support/app.js';
import { decodeClaims, GOOD_PASSWORD, serviceClient, uniqueEmail } from '../../support/identity.js';
import type { MemberData, SessionData } from '../../support/members.js';
import { firstError, LOGIN, ME, MEMBER_FIELDS, SESSION_FIELDS, signUpMember } from '../../support/members.js';
import type { SmtpListener } from '../../support/smtp.js';
import { mailTokens, startSmtpListener } from '../../support/smtp.js';
import { totpCode } from '../../support/totp.js';

const REQUEST_RESET = 'mutation ($email: String!) { requestPasswordReset(email: $email) { message } }';
const OPEN = `mutation ($token: String!) { openRecoveryLink(token: $token) { session { ${SESSION_FIELDS} mfaRequired } member { ${MEMBER_FIELDS} } } }`;
const SET_PASSWORD = `mutation ($password: String!) { setNewPassword(newPassword: $password) { ${MEMBER_FIELDS} } }`;
const RESET = `mutation ($input: ResetPasswordInput!) { resetPassword(input: $input) { session { ${SESSION_FIELDS} } } }`;
const REFRESH = `mutation ($token: String!) { refreshSession(refreshToken: $token) { session { ${SESSION_FIELDS} } } }`;
const START_MFA = 'mutation { startMfaSetup { secret } }';
const VERIFY_MFA = `mutation ($code: String!) { verifyMfa(code: $code) { session { ${SESSION_FIELDS} } } }`;

type OpenedSession = SessionData & { mfaRequired: boolean };
interface Opened {
  openRecoveryLink: { session: OpenedSession; member: MemberData };
}

let api: TestApp;
let smtp: SmtpListener;

beforeAll(async () => {
  smtp = await startSmtpListener();
  api = await startTestApp({ SMTP_URL: smtp.url, AUTH_SMTP_MAX_FREQUENCY: '0', AUTH_RATE_LIMIT_OTP: '1000' });
});
afterAll(async () => {
  await api.close();
  await smtp.close();
});

async function resetLinkToken(email: string): Promise<string> {
  await api.graphql(REQUEST_RESET, { email });
  return mailTokens(await smtp.nextMessage(email)).tokenHash;
}

async function openLink(token: string) {
  return api.graphql<Opened>(OPEN, { token });
}

async function login(email: string, password: string) {
  return api.graphql(LOGIN, { input: { email, password } });
}

describe('openRecoveryLink then setNewPassword', () => {
  it('opening the link signs in; the new password then works, the old does not, and other sessions end', async () => {
    const { email, session: elsewhere, member } = await signUpMember(api);
    const opened = await openLink(await resetLinkToken(email));
    expect(opened.errors).toBeUndefined();
    expect(opened.data?.openRecoveryLink.member).toEqual(member);
    const link = opened.data?.openRecoveryLink.session;
    expect(link?.mfaRequired).toBe(false);

    const set = await api.graphql(SET_PASSWORD, { password: 'a brand new passphrase' }, { token: link?.accessToken });
    expect(set.errors).toBeUndefined();
    expect(set.data).toEqual({ setNewPassword: member });
    expect((await login(email, 'a brand new passphrase')).errors).toBeUndefined();
    expect(firstError(await login(email, GOOD_PASSWORD)).code).toBe('INVALID_CREDENTIALS');
    expect((await api.graphql(ME, {}, { token: elsewhere.accessToken })).status).toBe(401);
    expect((await api.graphql(ME, {}, { token: link?.accessToken })).errors).toBeUndefined();
  });

  it('refuses a used link at once, before any password is typed', async () => {
    const { email } = await signUpMember(api);
    const token = await resetLinkToken(email);
    expect((await openLink(token)).errors).toBeUndefined();
    const again = await openLink(token);
    expect(firstError(again)).toMatchObject({ code: 'INVALID_TOKEN', identityCode: 'otp_expired' });
    expect(again.data).toBeNull();
  });

  it('refuses an expired link, and the password stays as it was', async () => {
    const { email, member } = await signUpMember(api);
    const token = await resetLinkToken(email);
    await api.dataSource.manager.update(
      AuthUserRecord,
      { id: member.user.uid },
      { recoverySentAt: new Date(Date.now() - 2 * 60 * 60 * 1000) },
    );
    expect(firstError(await openLink(token))).toMatchObject({ code: 'INVALID_TOKEN' });
    expect((await login(email, GOOD_PASSWORD)).errors).toBeUndefined();
  });

  it('refuses a malformed token with BAD_USER_INPUT', async () => {
    expect(firstError(await openLink('abc'))).toMatchObject({ code: 'BAD_USER_INPUT', field: 'token' });
  });

  it('refuses setNewPassword from a password session, changing nothing', async () => {
    const { email, session } = await signUpMember(api);
    const refused = await api.graphql(
      SET_PASSWORD,
      { password: 'a brand new passphrase' },
      { token: session.accessToken },
    );
    expect(firstError(refused)).toMatchObject({ code: 'REAUTHENTICATION_NEEDED' });
    expect((await login(email, GOOD_PASSWORD)).errors).toBeUndefined();
    expect((await api.graphql(ME, {}, { token: session.accessToken })).errors).toBeUndefined();
  });

  it('refuses setNewPassword from a link session opened more than 15 minutes ago', async () => {
    const { email } = await signUpMember(api);
    const link = (await openLink(await resetLinkToken(email))).data?.openRecoveryLink.session;
    const sessionId = decodeClaims(link?.accessToken ?? '').session_id as string;
    const longAgo = Math.floor(Date.now() / 1000) - 16 * 60;
    await api.dataSource.manager.update(
      AuthSessionRecord,
      { id: sessionId },
      { amr: [{ method: 'otp', timestamp: longAgo }] },
    );
    const refreshed = await api.graphql<{ refreshSession: { session: SessionData } }>(REFRESH, {
      token: link?.refreshToken,
    });
    const token = refreshed.data?.refreshSession.session.accessToken;
    expect(decodeClaims(token ?? '').amr).toEqual([{ method: 'otp', timestamp: longAgo }]);
    const refused = await api.graphql(SET_PASSWORD, { password: 'a brand new passphrase' }, { token });
    expect(firstError(refused)).toMatchObject({ code: 'REAUTHENTICATION_NEEDED' });
    expect((await login(email, GOOD_PASSWORD)).errors).toBeUndefined();
  });

  it('refuses a weak password with WEAK_PASSWORD and keeps the link session usable', async () => {
    const { email } = await signUpMember(api);
    const token = (await openLink(await resetLinkToken(email))).data?.openRecoveryLink.session.accessToken;
    const weak = await api.graphql(SET_PASSWORD, { password: 'short' }, { token });
    expect(firstError(weak)).toMatchObject({ code: 'WEAK_PASSWORD', field: 'newPassword' });
    expect(
      (await api.graphql(SET_PASSWORD, { password: 'a long enough passphrase' }, { token })).errors,
    ).toBeUndefined();
  });

  it('with two-factor on, the link session must pass the second factor before setting the password', async () => {
    const { email, session } = await signUpMember(api);
    const started = await api.graphql<{ startMfaSetup: { secret: string } }>(
      START_MFA,
      {},
      { token: session.accessToken },
    );
    const secret = started.data?.startMfaSetup.secret ?? '';
    const enrolledAt = Date.now();
    const enrolled = await api.graphql(
      VERIFY_MFA,
      { code: await totpCode(secret, enrolledAt) },
      { token: session.accessToken },
    );
    expect(enrolled.errors).toBeUndefined();

    const link = (await openLink(await resetLinkToken(email))).data?.openRecoveryLink.session;
    expect(link?.mfaRequired).toBe(true);
    const refused = await api.graphql(
      SET_PASSWORD,
      { password: 'a brand new passphrase' },
      { token: link?.accessToken },
    );
    expect(firstError(refused)).toMatchObject({ code: 'MFA_REQUIRED' });
    expect((await login(email, GOOD_PASSWORD)).errors).toBeUndefined();

    // The next time step's code: the enrolment's own code cannot be used twice.
    const passed = await api.graphql<{ verifyMfa: { session: SessionData } }>(
      VERIFY_MFA,
      { code: await totpCode(secret, enrolledAt + 30_000) },
      { token: link?.accessToken },
    );
    expect(passed.errors).toBeUndefined();
    const aal2 = passed.data?.verifyMfa.session.accessToken;
    expect(
      (await api.graphql(SET_PASSWORD, { password: 'a brand new passphrase' }, { token: aal2 })).errors,
    ).toBeUndefined();
    expect((await login(email, 'a brand new passphrase')).errors).toBeUndefined();
  });

  it('resetPassword (token and password in one call) still works for other clients', async () => {
    const { email } = await signUpMember(api);
    const token = await resetLinkToken(email);
    const reset = await api.graphql(RESET, { input: { token, newPassword: 'a one call passphrase' } });
    expect(reset.errors).toBeUndefined();
    expect((await login(email, 'a one call passphrase')).errors).toBeUndefined();
    expect(firstError(await openLink(token))).toMatchObject({ code: 'INVALID_TOKEN' });
  });
});

describe('an invitation', () => {
  it('the invite link signs the invitee in, their records exist, and setNewPassword gives them a password', async () => {
    const email = uniqueEmail('invited');
    const invited = await serviceClient(api).auth.admin.inviteUserByEmail(email, {
      data: { first: 'Lydia' },
      redirectTo: `${api.url}/email-confirmed`,
    });
    expect(invited.error).toBeNull();
    const { link } = mailTokens(await smtp.nextMessage(email));
    const response = await fetch(link, { redirect: 'manual' });
    const target = new URL(response.headers.get('location') ?? '');
    expect(target.pathname).toBe('/email-confirmed');
    const fragment = new URLSearchParams(target.hash.slice(1));
    expect(fragment.get('type')).toBe('invite');

    const signedIn = await api.graphql<{ refreshSession: { session: SessionData } }>(REFRESH, {
      token: fragment.get('refresh_token'),
    });
    expect(signedIn.errors).toBeUndefined();
    const uid = invited.data.user?.id ?? '';
    expect(await api.dataSource.manager.findOneBy(UserRecord, { uid })).toMatchObject({ email, first: 'Lydia' });

    const token = signedIn.data?.refreshSession.session.accessToken;
    const set = await api.graphql<{ setNewPassword: MemberData }>(
      SET_PASSWORD,
      { password: 'an invited passphrase' },
      { token },
    );
    expect(set.errors).toBeUndefined();
    expect(set.data?.setNewPassword.user.email).toBe(email);
    expect((await login(email, 'an invited passphrase')).errors).toBeUndefined();
  });
});
