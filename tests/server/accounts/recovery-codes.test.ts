// B13 recovery codes (an extension beyond Supabase Auth): ten single-use codes, made at aal2, that
// pass two-factor sign-in once each in place of an authenticator-app code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthRecoveryCodeRecord } from '../../../server/src/identity/embedded/factor-entities.js';
import { hashRecoveryCode } from '../../../server/src/identity/embedded/routes/recovery-codes.js';
import { IdentityClient } from '../../../server/src/identity/identity.client.js';
import type { TestApp } from '../../support/app.js';
import { startTestApp } from '../../support/app.js';
import { decodeClaims, identityFetch, identityKeys } from '../../support/identity.js';
import type { SessionData, SignedUpMember } from '../../support/members.js';
import { firstError, SESSION_FIELDS, signUpMember } from '../../support/members.js';
import { totpCode } from '../../support/totp.js';

let api: TestApp;

beforeAll(async () => {
  api = await startTestApp({ AUTH_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY: '1000' });
});
afterAll(async () => {
  await api.close();
});

type MfaSession = SessionData & { mfaRequired: boolean };
const START = 'mutation { startMfaSetup { secret } }';
const VERIFY_MFA = `mutation ($code: String!) { verifyMfa(code: $code) { session { ${SESSION_FIELDS} mfaRequired } } }`;
const GENERATE = 'mutation { generateRecoveryCodes }';
const USE = `mutation ($code: String!) {
  verifyRecoveryCode(code: $code) { session { ${SESSION_FIELDS} mfaRequired } }
}`;
const LOGIN = `mutation ($input: LoginInput!) { login(input: $input) { session { ${SESSION_FIELDS} mfaRequired } } }`;

/** A member with two-factor sign-in on, and the aal2 session that turned it on. */
async function memberWithMfa(): Promise<SignedUpMember & { aal2: MfaSession }> {
  const member = await signUpMember(api);
  const token = member.session.accessToken;
  const started = await api.graphql<{ startMfaSetup: { secret: string } }>(START, {}, { token });
  const code = await totpCode(started.data?.startMfaSetup.secret ?? '');
  const verified = await api.graphql<{ verifyMfa: { session: MfaSession } }>(VERIFY_MFA, { code }, { token });
  expect(verified.errors, JSON.stringify(verified.errors)).toBeUndefined();
  const aal2 = verified.data?.verifyMfa.session;
  if (!aal2) throw new Error('no session');
  return { ...member, aal2 };
}

async function passwordOnly(member: SignedUpMember): Promise<MfaSession> {
  const response = await api.graphql<{ login: { session: MfaSession } }>(LOGIN, {
    input: { email: member.email, password: member.password },
  });
  const session = response.data?.login.session;
  if (!session) throw new Error(JSON.stringify(response.errors));
  expect(session.mfaRequired).toBe(true);
  return session;
}

async function generate(token: string): Promise<string[]> {
  const response = await api.graphql<{ generateRecoveryCodes: string[] }>(GENERATE, {}, { token });
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return response.data?.generateRecoveryCodes ?? [];
}

const use = (token: string, code: string) =>
  api.graphql<{ verifyRecoveryCode: { session: MfaSession } }>(USE, { code }, { token });

describe('B13 recovery codes', () => {
  it('are ten distinct codes, made only at aal2 and stored as hashes', async () => {
    const member = await memberWithMfa();
    const aal1 = await passwordOnly(member);
    expect(firstError(await api.graphql(GENERATE, {}, { token: aal1.accessToken })).code).toBe('MFA_REQUIRED');
    const refused = await identityFetch(api, '/factors/recovery', { body: {}, token: aal1.accessToken });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('insufficient_aal');

    const codes = await generate(member.aal2.accessToken);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    const stored = await api.dataSource
      .getRepository(AuthRecoveryCodeRecord)
      .findBy({ userId: member.member.user.uid });
    expect(stored.map((row) => row.codeHash).sort()).toEqual(codes.map(hashRecoveryCode).sort());
    expect(JSON.stringify(stored)).not.toContain(codes[0]?.replace(/-/g, ''));

    // Without two-factor sign-in on there is nothing to recover.
    const plain = await signUpMember(api);
    expect(firstError(await api.graphql(GENERATE, {}, { token: plain.session.accessToken }))).toMatchObject({
      code: 'BAD_USER_INPUT',
    });
  });

  it('a code passes two-factor sign-in once, at aal2; used again it is refused with RECOVERY_CODE_USED', async () => {
    const member = await memberWithMfa();
    const [first, second] = await generate(member.aal2.accessToken);
    if (!first || !second) throw new Error('no codes');

    const aal1 = await passwordOnly(member);
    const passed = await use(aal1.accessToken, first.toLowerCase());
    expect(passed.errors, JSON.stringify(passed.errors)).toBeUndefined();
    const session = passed.data?.verifyRecoveryCode.session;
    expect(session?.mfaRequired).toBe(false);
    const claims = decodeClaims(session?.accessToken ?? '');
    expect(claims.aal).toBe('aal2');
    expect(claims.amr).toContainEqual(expect.objectContaining({ method: 'recovery_code' }));
    const stats = await api.graphql('{ pageStats { days } }', {}, { token: session?.accessToken ?? '' });
    expect(stats.errors).toBeUndefined();

    const again = await passwordOnly(member);
    expect(firstError(await use(again.accessToken, first))).toMatchObject({
      code: 'RECOVERY_CODE_USED',
      identityCode: 'recovery_code_used',
    });
    expect(firstError(await use(again.accessToken, 'AAAA-BBBB-CCCC-DDDD'))).toMatchObject({
      code: 'INVALID_TOKEN',
      identityCode: 'mfa_verification_failed',
    });
    expect(firstError(await api.graphql('{ pageStats { days } }', {}, { token: again.accessToken })).code).toBe(
      'MFA_REQUIRED',
    );
    // Another code of the set still works.
    expect((await use(again.accessToken, second)).data?.verifyRecoveryCode.session.mfaRequired).toBe(false);
  });

  it('a new set makes every code of the earlier set useless', async () => {
    const member = await memberWithMfa();
    const old = await generate(member.aal2.accessToken);
    const fresh = await generate(member.aal2.accessToken);
    expect(fresh.filter((code) => old.includes(code))).toEqual([]);
    const aal1 = await passwordOnly(member);
    expect(firstError(await use(aal1.accessToken, old[0] ?? '')).code).toBe('INVALID_TOKEN');
    expect((await use(aal1.accessToken, fresh[0] ?? '')).data?.verifyRecoveryCode.session.mfaRequired).toBe(false);
  });

  it('locks after five wrong codes, whatever the address, and then refuses a right one too', async () => {
    const member = await memberWithMfa();
    const [right] = await generate(member.aal2.accessToken);
    const aal1 = await passwordOnly(member);
    for (let i = 0; i < 5; i += 1) {
      const wrong = await identityFetch(api, '/factors/recovery/verify', {
        body: { code: `WRNG-CODE-0000-000${i}` },
        token: aal1.accessToken,
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
      });
      expect(wrong.body.code).toBe('mfa_verification_failed');
    }
    expect(firstError(await use(aal1.accessToken, right ?? '')).code).toBe('RATE_LIMITED');
    const row = await api.dataSource
      .getRepository(AuthRecoveryCodeRecord)
      .findOneBy({ userId: member.member.user.uid, codeHash: hashRecoveryCode(right ?? '') });
    expect(row?.usedAt).toBeNull();
  });

  it('answers RECOVERY_CODES_UNAVAILABLE through a client without the extension (hosted Supabase Auth)', async () => {
    const member = await memberWithMfa();
    const hosted = new IdentityClient({ url: api.url, ...identityKeys(api) });
    await expect(hosted.recoveryCodes.generate(member.aal2)).rejects.toMatchObject({
      code: 'recovery_codes_unavailable',
    });
  });
});
