import { describe, expect, it } from 'vitest';
import { In } from 'typeorm';
import { AuthOneTimeTokenRecord } from '../../../server/src/identity/embedded/entities.js';
import { UserRecord } from '../../../server/src/members/user.entity.js';
import { startBillingApp } from '../../support/billing.js';
import { forTheFile } from '../../support/for-the-file.js';
import { decodeClaims, identityFetch, uniqueEmail } from '../../support/identity.js';
import type { SessionData, SignedUpMember } from '../../support/members.js';
import { firstError, MEMBER_FIELDS, SESSION_FIELDS, signUpMember } from '../../support/members.js';
import { totpCode } from '../../support/totp.js';

const billing = forTheFile(() =>
  startBillingApp({ AUTH_RATE_LIMIT_OTP: '1000', AUTH_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY: '1000' }),
);

const STATUS = '{ mfaStatus { enabled verified } }';
const START = 'mutation { startMfaSetup { factorId secret uri qrCodeSvg } }';
const VERIFY = `mutation ($code: String!) {
  verifyMfa(code: $code) { session { ${SESSION_FIELDS} mfaRequired } member { ${MEMBER_FIELDS} } }
}`;
const LOGIN_MFA = `mutation ($input: LoginInput!) { login(input: $input) { session { ${SESSION_FIELDS} mfaRequired } } }`;

type MfaSession = SessionData & { mfaRequired: boolean };

/** A member with two-factor sign-in on, confirmed with the code of `usedAt`. */
async function memberWithMfa(): Promise<SignedUpMember & { secret: string; usedAt: number; aal2: MfaSession }> {
  const member = await signUpMember(billing.api);
  const token = member.session.accessToken;
  const started = await billing.api.graphql<{ startMfaSetup: { secret: string } }>(START, {}, { token });
  expect(started.errors, JSON.stringify(started.errors)).toBeUndefined();
  const secret = started.data?.startMfaSetup.secret ?? '';
  const usedAt = Date.now();
  const verified = await billing.api.graphql<{ verifyMfa: { session: MfaSession } }>(
    VERIFY,
    { code: await totpCode(secret, usedAt) },
    { token },
  );
  expect(verified.errors, JSON.stringify(verified.errors)).toBeUndefined();
  const aal2 = verified.data?.verifyMfa.session;
  if (!aal2) throw new Error('no session');
  return { ...member, secret, usedAt, aal2 };
}

async function login(member: SignedUpMember): Promise<MfaSession> {
  const response = await billing.api.graphql<{ login: { session: MfaSession } }>(LOGIN_MFA, {
    input: { email: member.email, password: member.password },
  });
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  const session = response.data?.login.session;
  if (!session) throw new Error('no session');
  return session;
}

describe('turning two-factor sign-in on', () => {
  it('shows a QR code and secret, then a right code turns it on and raises the session', async () => {
    const member = await signUpMember(billing.api);
    const token = member.session.accessToken;
    expect((await billing.api.graphql(STATUS, {}, { token })).data).toEqual({
      mfaStatus: { enabled: false, verified: false },
    });

    const started = await billing.api.graphql<{ startMfaSetup: { secret: string; uri: string; qrCodeSvg: string } }>(
      START,
      {},
      { token },
    );
    const setup = started.data?.startMfaSetup;
    expect(setup?.qrCodeSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(setup?.uri).toContain(`secret=${setup?.secret ?? '?'}`);

    const verified = await billing.api.graphql<{ verifyMfa: { session: MfaSession } }>(
      VERIFY,
      { code: await totpCode(setup?.secret ?? '') },
      { token },
    );
    expect(verified.errors).toBeUndefined();
    const session = verified.data?.verifyMfa.session;
    expect(session?.mfaRequired).toBe(false);
    expect(decodeClaims(session?.accessToken ?? '').aal).toBe('aal2');
    const status = await billing.api.graphql(STATUS, {}, { token: session?.accessToken ?? '' });
    expect(status.data).toEqual({ mfaStatus: { enabled: true, verified: true } });
  });

  it('refuses a malformed code with BAD_USER_INPUT and a wrong one with INVALID_TOKEN, staying off', async () => {
    const member = await signUpMember(billing.api);
    const token = member.session.accessToken;
    const started = await billing.api.graphql<{ startMfaSetup: { secret: string } }>(START, {}, { token });
    const right = await totpCode(started.data?.startMfaSetup.secret ?? '');
    const wrong = right === '000000' ? '111111' : '000000';

    expect(firstError(await billing.api.graphql(VERIFY, { code: '12ab' }, { token }))).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'code',
    });
    expect(firstError(await billing.api.graphql(VERIFY, { code: wrong }, { token }))).toMatchObject({
      code: 'INVALID_TOKEN',
      identityCode: 'mfa_verification_failed',
    });
    expect((await billing.api.graphql(STATUS, {}, { token })).data).toEqual({
      mfaStatus: { enabled: false, verified: false },
    });
  });
});

describe('signing in with two-factor sign-in on', () => {
  it('marks the session as needing the code; the next code passes it, a used one does not', async () => {
    const member = await memberWithMfa();
    const session = await login(member);
    expect(session.mfaRequired).toBe(true);
    expect(decodeClaims(session.accessToken).aal).toBe('aal1');

    const reused = await billing.api.graphql(
      VERIFY,
      { code: await totpCode(member.secret, member.usedAt) },
      {
        token: session.accessToken,
      },
    );
    expect(firstError(reused).code).toBe('INVALID_TOKEN');

    const passed = await billing.api.graphql<{ verifyMfa: { session: MfaSession } }>(
      VERIFY,
      { code: await totpCode(member.secret, member.usedAt + 30_000) },
      { token: session.accessToken },
    );
    expect(passed.errors).toBeUndefined();
    expect(passed.data?.verifyMfa.session.mfaRequired).toBe(false);
    const changed = await billing.api.graphql(
      'mutation { updateEmail(email: "moved.on@example.org") { pendingEmail } }',
      {},
      { token: passed.data?.verifyMfa.session.accessToken ?? '' },
    );
    expect(changed.errors).toBeUndefined();
  });
});

describe('account changes from a session that has not passed the code', () => {
  const CHANGES: [string, (password: string) => string][] = [
    ['updateEmail', () => 'mutation { updateEmail(email: "someone.else@example.org") { pendingEmail } }'],
    [
      'changePassword',
      (password) =>
        `mutation { changePassword(input: { currentPassword: "${password}", newPassword: "a brand new passphrase" }) { session { accessToken } } }`,
    ],
    ['deleteAccount', (password) => `mutation { deleteAccount(password: "${password}") }`],
    ['startCheckout', () => `mutation { startCheckout(priceId: "${billing.plusPrice}") { url } }`],
    ['openBillingPortal', () => 'mutation { openBillingPortal { url } }'],
    ['disableMfa', () => 'mutation { disableMfa }'],
    ['myData', () => 'query { myData }'],
  ];

  it.each(CHANGES)('refuses %s with MFA_REQUIRED and changes nothing', async (_name, mutation) => {
    const member = await memberWithMfa();
    const session = await login(member);
    const before = await billing.api.dataSource.getRepository(UserRecord).findOneBy({ uid: member.member.user.uid });
    const response = await billing.api.graphql(mutation(member.password), {}, { token: session.accessToken });
    expect(firstError(response).code).toBe('MFA_REQUIRED');
    expect(await billing.api.dataSource.getRepository(UserRecord).findOneBy({ uid: member.member.user.uid })).toEqual(
      before,
    );
    expect([...billing.stripe.customers.values()]).not.toContainEqual(
      expect.objectContaining({ metadata: expect.objectContaining({ lampstand_uid: member.member.user.uid }) }),
    );
    // The password still works and two-factor sign-in is still on.
    expect((await login(member)).mfaRequired).toBe(true);
  });
});

describe('changing the password with two-factor sign-in on', () => {
  it('works from a session that passed the code; the member continues in a new session that asks for it', async () => {
    const member = await memberWithMfa();
    const response = await billing.api.graphql<{ changePassword: { session: MfaSession } }>(
      `mutation ($input: ChangePasswordInput!) { changePassword(input: $input) { session { ${SESSION_FIELDS} mfaRequired } } }`,
      { input: { currentPassword: member.password, newPassword: 'a brand new passphrase' } },
      { token: member.aal2.accessToken },
    );
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    const next = response.data?.changePassword.session;
    expect(next?.mfaRequired).toBe(true);
    // The session that made the change has ended; the new password signs in and asks for the code.
    expect(firstError(await billing.api.graphql('{ me { uid } }', {}, { token: member.aal2.accessToken })).code).toBe(
      'UNAUTHENTICATED',
    );
    expect((await login({ ...member, password: 'a brand new passphrase' })).mfaRequired).toBe(true);
    expect(
      firstError(await billing.api.graphql(LOGIN_MFA, { input: { email: member.email, password: member.password } }))
        .code,
    ).toBe('INVALID_CREDENTIALS');
  });
});

describe('changing the password keeps what else is going on', () => {
  it('B13 with the refresh token the session stays at aal2, and a pending email change survives with its links', async () => {
    const member = await memberWithMfa();
    const token = member.aal2.accessToken;
    const newEmail = uniqueEmail('moved');
    const moved = await billing.api.graphql(
      'mutation ($email: String!) { updateEmail(email: $email) { pendingEmail } }',
      {
        email: newEmail,
      },
      { token },
    );
    expect(moved.errors, JSON.stringify(moved.errors)).toBeUndefined();
    const { uid } = member.member.user;
    const pendingLinks = () =>
      billing.api.dataSource
        .getRepository(AuthOneTimeTokenRecord)
        .countBy({ userId: uid, tokenType: In(['email_change_token_current', 'email_change_token_new']) });
    expect(await pendingLinks()).toBe(2);

    const response = await billing.api.graphql<{ changePassword: { session: MfaSession } }>(
      `mutation ($input: ChangePasswordInput!) { changePassword(input: $input) { session { ${SESSION_FIELDS} mfaRequired } } }`,
      {
        input: {
          currentPassword: member.password,
          newPassword: 'a brand new passphrase',
          refreshToken: member.aal2.refreshToken,
        },
      },
      { token },
    );
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    const next = response.data?.changePassword.session;
    expect(next?.mfaRequired).toBe(false);
    expect(decodeClaims(next?.accessToken ?? '').aal).toBe('aal2');
    expect(decodeClaims(next?.accessToken ?? '').session_id).toBe(decodeClaims(token).session_id);
    // What needs the second factor still works, and nothing asks for the code again.
    expect((await billing.api.graphql('{ myData }', {}, { token: next?.accessToken ?? '' })).errors).toBeUndefined();
    expect((await billing.api.graphql(STATUS, {}, { token: next?.accessToken ?? '' })).data).toEqual({
      mfaStatus: { enabled: true, verified: true },
    });
    // The email change is still pending, its links kept; the new password signs in.
    const user = await identityFetch(billing.api, '/user', { token: next?.accessToken ?? '' });
    expect(user.body.new_email).toBe(newEmail);
    expect(await pendingLinks()).toBe(2);
    expect((await login({ ...member, password: 'a brand new passphrase' })).mfaRequired).toBe(true);
  });

  it('B13 a refresh token of another session is not taken: the answer is a new session that asks for the code', async () => {
    const member = await memberWithMfa();
    const other = await signUpMember(billing.api);
    const response = await billing.api.graphql<{ changePassword: { session: MfaSession } }>(
      `mutation ($input: ChangePasswordInput!) { changePassword(input: $input) { session { ${SESSION_FIELDS} mfaRequired } } }`,
      {
        input: {
          currentPassword: member.password,
          newPassword: 'a brand new passphrase',
          refreshToken: other.session.refreshToken,
        },
      },
      { token: member.aal2.accessToken },
    );
    expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    const next = response.data?.changePassword.session;
    expect(next?.mfaRequired).toBe(true);
    expect(decodeClaims(next?.accessToken ?? '').sub).toBe(member.member.user.uid);
  });
});

describe('turning two-factor sign-in off', () => {
  it('works from a session that passed the code; signing in then asks for the password only', async () => {
    const member = await memberWithMfa();
    const off = await billing.api.graphql('mutation { disableMfa }', {}, { token: member.aal2.accessToken });
    expect(off.errors).toBeUndefined();
    expect(off.data).toEqual({ disableMfa: true });
    const session = await login(member);
    expect(session.mfaRequired).toBe(false);
    const changed = await billing.api.graphql(
      'mutation { updateEmail(email: "free.again@example.org") { pendingEmail } }',
      {},
      { token: session.accessToken },
    );
    expect(changed.errors).toBeUndefined();
  });
});
