import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthSessionRecord } from '../../../server/src/identity/embedded/entities.js';
import type { TestApp } from '../../support/app.js';
import { startTestApp } from '../../support/app.js';
import { decodeClaims } from '../../support/identity.js';
import type { SessionData, SignedUpMember } from '../../support/members.js';
import { firstError, SESSION_FIELDS, signUpMember } from '../../support/members.js';
import { totpCode } from '../../support/totp.js';

/** Behind a trusted proxy (127.0.0.1), so that X-Forwarded-For names the client. */
let api: TestApp;

beforeAll(async () => {
  api = await startTestApp({ TRUST_PROXY: '127.0.0.1', AUTH_RATE_LIMIT_OTP: '1000' });
});
afterAll(async () => {
  await api.close();
});

const START = 'mutation { startMfaSetup { factorId secret } }';
const VERIFY = `mutation ($code: String!) { verifyMfa(code: $code) { session { ${SESSION_FIELDS} mfaRequired } } }`;
const LOGIN = `mutation ($input: LoginInput!) { login(input: $input) { session { ${SESSION_FIELDS} mfaRequired } } }`;
const UPDATE_EMAIL = `mutation ($email: String!, $currentPassword: String) {
  updateEmail(email: $email, currentPassword: $currentPassword) { pendingEmail }
}`;
const CHANGE_PASSWORD = `mutation ($input: ChangePasswordInput!) { changePassword(input: $input) { session { ${SESSION_FIELDS} } } }`;

type MfaSession = SessionData & { mfaRequired: boolean };

/** A member with two-factor sign-in on; answers the secret and the aal2 session. */
async function memberWithMfa(): Promise<SignedUpMember & { secret: string; aal2: MfaSession }> {
  const member = await signUpMember(api);
  const token = member.session.accessToken;
  const started = await api.graphql<{ startMfaSetup: { secret: string } }>(START, {}, { token });
  const secret = started.data?.startMfaSetup.secret ?? '';
  const verified = await api.graphql<{ verifyMfa: { session: MfaSession } }>(
    VERIFY,
    { code: await totpCode(secret) },
    { token },
  );
  expect(verified.errors, JSON.stringify(verified.errors)).toBeUndefined();
  const aal2 = verified.data?.verifyMfa.session;
  if (!aal2) throw new Error('no session');
  return { ...member, secret, aal2 };
}

/** Moves every sign-in of the token's session an hour back: a token that is all a thief has. */
async function signedInLongAgo(token: string): Promise<void> {
  const sessionId = decodeClaims(token).session_id as string;
  const session = await api.dataSource.manager.findOneByOrFail(AuthSessionRecord, { id: sessionId });
  const amr = session.amr.map((entry) => ({ ...entry, timestamp: entry.timestamp - 3600 }));
  await api.dataSource.manager.update(AuthSessionRecord, { id: sessionId }, { amr });
}

async function wrongCode(secret: string): Promise<string> {
  const now = Date.now();
  const valid = new Set(await Promise.all([-30_000, 0, 30_000].map((shift) => totpCode(secret, now + shift))));
  for (let candidate = 0; ; candidate++) {
    const code = String(candidate).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

describe('B13 verifyMfa counts wrong codes per factor, whatever the address', () => {
  it('locks the factor after 5 wrong codes from 20 addresses: RATE_LIMITED, the right code too', async () => {
    const member = await memberWithMfa();
    const login = await api.graphql<{ login: { session: MfaSession } }>(LOGIN, {
      input: { email: member.email, password: member.password },
    });
    const token = login.data?.login.session.accessToken ?? '';
    expect(login.data?.login.session.mfaRequired).toBe(true);
    const codes = [];
    for (let index = 1; index <= 20; index++) {
      const answer = await api.graphql(
        VERIFY,
        { code: await wrongCode(member.secret) },
        { token, headers: { 'x-forwarded-for': `203.0.113.${index}` } },
      );
      codes.push(firstError(answer).code);
    }
    expect(codes).toEqual([...Array<string>(5).fill('INVALID_TOKEN'), ...Array<string>(15).fill('RATE_LIMITED')]);
    const right = await api.graphql(
      VERIFY,
      { code: await totpCode(member.secret, Date.now() + 30_000) },
      { token, headers: { 'x-forwarded-for': '203.0.113.99' } },
    );
    expect(firstError(right).code).toBe('RATE_LIMITED');
  });
});

describe('B13 account changes from a session signed in long ago', () => {
  it('updateEmail needs the current password: REAUTHENTICATION_NEEDED without, INVALID_CREDENTIALS when wrong', async () => {
    const member = await signUpMember(api);
    const token = member.session.accessToken;
    await signedInLongAgo(token);
    const target = `moved-${Date.now()}@example.org`;
    const bare = await api.graphql(UPDATE_EMAIL, { email: target }, { token });
    expect(firstError(bare).code).toBe('REAUTHENTICATION_NEEDED');
    const wrong = await api.graphql(UPDATE_EMAIL, { email: target, currentPassword: 'not my password' }, { token });
    expect(firstError(wrong)).toMatchObject({ code: 'INVALID_CREDENTIALS', field: 'currentPassword' });
    const changed = await api.graphql<{ updateEmail: { pendingEmail: string } }>(
      UPDATE_EMAIL,
      { email: target, currentPassword: member.password },
      { token },
    );
    expect(changed.errors, JSON.stringify(changed.errors)).toBeUndefined();
    expect(changed.data?.updateEmail.pendingEmail).toBe(target);
  });

  it('changePassword passes the current password through, also from an aal2 session', async () => {
    const member = await memberWithMfa();
    const token = member.aal2.accessToken;
    await signedInLongAgo(token);
    const changed = await api.graphql(
      CHANGE_PASSWORD,
      { input: { currentPassword: member.password, newPassword: 'a fresh passphrase for later' } },
      { token },
    );
    expect(changed.errors, JSON.stringify(changed.errors)).toBeUndefined();
    const again = await api.graphql<{ login: { session: MfaSession } }>(LOGIN, {
      input: { email: member.email, password: 'a fresh passphrase for later' },
    });
    expect(again.errors).toBeUndefined();
  });
});
