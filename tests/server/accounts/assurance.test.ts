import type { GraphQLArgument, GraphQLField, GraphQLInputType, GraphQLOutputType } from 'graphql';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isAbstractType,
  isScalarType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAppSchema, resolvers } from '../../../server/src/app/schema.js';
import { classifyRootFields } from '../../../server/src/graphql/auth.js';
import { identityRoutes } from '../../../server/src/identity/embedded/api.js';
import type { GraphQLResponse, TestApp } from '../../support/app.js';
import { startTestApp } from '../../support/app.js';
import { decodeClaims, identityFetch } from '../../support/identity.js';
import type { SessionData, SignedUpMember } from '../../support/members.js';
import { firstError, MEMBER_FIELDS, SESSION_FIELDS, signUpMember } from '../../support/members.js';
import { totpCode } from '../../support/totp.js';

/**
 * One assurance rule, deny by default (B13): a member with a verified TOTP factor signs in with the
 * password alone, and that aal1 token is walked over every root field of the built schema and every
 * `user` route of the identity service. Only the allow-list answers, and it shows nothing private;
 * after the code (aal2), the same calls pass the rule.
 */

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp({
    AUTH_RATE_LIMIT_OTP: '1000',
    AUTH_RATE_LIMIT_TOKEN: '1000',
    AUTH_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY: '1000',
  });
});
afterAll(async () => {
  await api.close();
});

type MfaSession = SessionData & { mfaRequired: boolean };
const VERIFY = `mutation ($code: String!) { verifyMfa(code: $code) { session { ${SESSION_FIELDS} mfaRequired } } }`;
const LOGIN = `mutation ($input: LoginInput!) {
  login(input: $input) { session { ${SESSION_FIELDS} mfaRequired } member { ${MEMBER_FIELDS} } }
}`;
const NIL_UUID = '00000000-0000-4000-8000-000000000000';

/** A sign-in answer: the session, and the member once the second factor has passed. */
interface Answer {
  session: MfaSession;
  member: { user: { birthday: string | null } } | null;
}

interface MfaMember extends SignedUpMember {
  secret: string;
  factorId: string;
}

/** A member with two-factor sign-in on (a verified TOTP factor), and a private birthday and bio. */
async function memberWithMfa(): Promise<MfaMember> {
  const member = await signUpMember(api, { birthday: '1990-04-02' });
  const token = member.session.accessToken;
  const bio = await api.graphql(
    'mutation { updateProfile(input: { bio: "Private until shared" }) { bio } }',
    {},
    { token },
  );
  expect(bio.errors, JSON.stringify(bio.errors)).toBeUndefined();
  const started = await api.graphql<{ startMfaSetup: { secret: string; factorId: string } }>(
    'mutation { startMfaSetup { secret factorId } }',
    {},
    { token },
  );
  const { secret = '', factorId = '' } = started.data?.startMfaSetup ?? {};
  const verified = await api.graphql(VERIFY, { code: await totpCode(secret) }, { token });
  expect(verified.errors, JSON.stringify(verified.errors)).toBeUndefined();
  return { ...member, secret, factorId };
}

/** Signs in with the password only: the half-signed-in (aal1) session. */
async function passwordOnly(member: SignedUpMember): Promise<MfaSession> {
  const response = await api.graphql<{ login: { session: MfaSession; member: unknown } }>(LOGIN, {
    input: { email: member.email, password: member.password },
  });
  const session = response.data?.login.session;
  if (!session) throw new Error(JSON.stringify(response.errors));
  expect(session.mfaRequired).toBe(true);
  // The login answer itself carries no member data (birthday, profile) before the second factor.
  expect(response.data?.login.member).toBeNull();
  expect(decodeClaims(session.accessToken).aal).toBe('aal1');
  return session;
}

/** Passes the second factor with the code of the next time step (the current one is spent). */
async function passCode(member: MfaMember, token: string): Promise<string> {
  const response = await api.graphql<{ verifyMfa: { session: MfaSession } }>(
    VERIFY,
    { code: await totpCode(member.secret, Date.now() + 30_000) },
    { token },
  );
  const session = response.data?.verifyMfa.session;
  if (!session) throw new Error(JSON.stringify(response.errors));
  expect(decodeClaims(session.accessToken).aal).toBe('aal2');
  return session.accessToken;
}

/** A value of `type` that GraphQL's validation accepts (the resolvers may refuse it). */
function sample(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sample(type.ofType);
  if (isListType(type)) return [sample(type.ofType)];
  if (isEnumType(type)) return type.getValues()[0]?.value;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((field) => isNonNullType(field.type));
    return Object.fromEntries(fields.map((field) => [field.name, sample(field.type)]));
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'Int':
      case 'Float':
        return 1;
      case 'Boolean':
        return false;
      case 'ID':
        return NIL_UUID;
      case 'DateTimeISO':
        return new Date().toISOString();
      default:
        return 'x';
    }
  }
  throw new Error(`no sample for ${String(type)}`);
}

function selection(type: GraphQLOutputType): string {
  const named = getNamedType(type);
  return isObjectType(named) || isAbstractType(named) ? ' { __typename }' : '';
}

/** One operation calling `field` with sample values for its required arguments. */
function operationFor(root: 'Query' | 'Mutation', field: GraphQLField<unknown, unknown>) {
  const required = field.args.filter(
    (arg: GraphQLArgument) => isNonNullType(arg.type) && arg.defaultValue === undefined,
  );
  const variables = Object.fromEntries(required.map((arg) => [arg.name, sample(arg.type)]));
  const declared = required.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
  const passed = required.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const query =
    `${root === 'Query' ? 'query' : 'mutation'}${declared ? ` (${declared})` : ''} ` +
    `{ ${field.name}${passed ? `(${passed})` : ''}${selection(field.type)} }`;
  return { query, variables };
}

interface RootCall {
  name: string;
  access: 'public' | 'authorized' | 'partial';
  query: string;
  variables: Record<string, unknown>;
}

/** Every Query and Mutation field of the schema the server builds, with its classification. */
async function rootCalls(): Promise<RootCall[]> {
  const schema = await buildAppSchema();
  const access = new Map(classifyRootFields([...resolvers]).map((entry) => [entry.field, entry.access]));
  const calls: RootCall[] = [];
  for (const root of ['Query', 'Mutation'] as const) {
    const type = root === 'Query' ? schema.getQueryType() : schema.getMutationType();
    for (const field of Object.values(type?.getFields() ?? {})) {
      const name = `${root}.${field.name}`;
      const classified = access.get(name);
      if (!classified) throw new Error(`${name} is not classified`);
      calls.push({ name, access: classified, ...operationFor(root, field) });
    }
  }
  // Ending the session and turning two-factor sign-in off come last, so the others run first.
  const last = ['Mutation.disableMfa', 'Mutation.logout'];
  return calls.sort((a, b) => last.indexOf(a.name) - last.indexOf(b.name));
}

const refusedCode = (response: GraphQLResponse<unknown>): unknown => firstError(response).code;

describe('a password alone, with two-factor sign-in on (GraphQL)', () => {
  it('B13 every authorized root field answers MFA_REQUIRED; the allow-list shows nothing private; aal2 passes', async () => {
    const member = await memberWithMfa();
    const aal1 = await passwordOnly(member);
    const calls = await rootCalls();
    expect(calls.length).toBeGreaterThan(40);
    const partial = calls.filter((call) => call.access === 'partial').map((call) => call.name);
    expect(partial.sort()).toEqual([
      'Mutation.logout',
      'Mutation.verifyMfa',
      'Mutation.verifyRecoveryCode',
      'Query.mfaStatus',
    ]);

    for (const call of calls.filter((entry) => entry.name !== 'Mutation.logout')) {
      const withToken = await api.graphql(call.query, call.variables, { token: aal1.accessToken });
      const message = `${call.name}: ${JSON.stringify(withToken)}`;
      if (call.access === 'authorized') {
        expect(refusedCode(withToken), message).toBe('MFA_REQUIRED');
        expect(withToken.data ?? null, message).toBeNull();
      } else if (call.access === 'public') {
        // Anyone's answer, or MFA_REQUIRED (`me`): the token adds nothing.
        const anonymous = await api.graphql(call.query, call.variables);
        if (refusedCode(withToken) !== 'MFA_REQUIRED') {
          expect(refusedCode(withToken), message).toEqual(refusedCode(anonymous));
          expect(withToken.data, message).toEqual(anonymous.data);
        }
      } else {
        expect(refusedCode(withToken), message).not.toBe('MFA_REQUIRED');
      }
    }

    // What the allow-list tells: two booleans, and no member data.
    const status = await api.graphql('{ mfaStatus { enabled verified } }', {}, { token: aal1.accessToken });
    expect(status.data).toEqual({ mfaStatus: { enabled: true, verified: false } });
    expect(refusedCode(await api.graphql(`{ me { ${MEMBER_FIELDS} } }`, {}, { token: aal1.accessToken }))).toBe(
      'MFA_REQUIRED',
    );
    // The attacks of the issue changed nothing.
    for (const attack of [
      'mutation { changeUsername(username: "taken.over") { username } }',
      'mutation { addLink(input: { title: "Log in", url: "https://phish.example/" }) { id } }',
      'mutation { updateProfile(input: { bio: "hacked" }) { bio } }',
      'mutation { removePhoto { username } }',
      '{ pageStats { days } }',
    ]) {
      expect(refusedCode(await api.graphql(attack, {}, { token: aal1.accessToken })), attack).toBe('MFA_REQUIRED');
    }
    const token = await passCode(member, aal1.accessToken);
    const me = await api.graphql<{ me: { profile: { username: string; bio: string; links: unknown[] } } }>(
      '{ me { profile { username bio links { id } } } }',
      {},
      { token },
    );
    expect(me.data?.me.profile).toEqual({
      username: member.member.profile.username,
      bio: 'Private until shared',
      links: [],
    });

    // At aal2 the same calls all pass the rule (sample arguments may still be refused as bad input).
    for (const call of calls.filter((entry) => entry.access !== 'public')) {
      const response = await api.graphql(call.query, call.variables, { token });
      expect(refusedCode(response), `${call.name}: ${JSON.stringify(response)}`).not.toBe('MFA_REQUIRED');
    }
  });

  it('B13 the sign-in answers carry the member only once the second factor has passed', async () => {
    const member = await memberWithMfa();
    const aal1 = await passwordOnly(member);
    const refreshed = await api.graphql<{ refreshSession: Answer }>(
      `mutation ($refreshToken: String!) {
        refreshSession(refreshToken: $refreshToken) { session { ${SESSION_FIELDS} mfaRequired } member { ${MEMBER_FIELDS} } }
      }`,
      { refreshToken: aal1.refreshToken },
    );
    expect(refreshed.errors, JSON.stringify(refreshed.errors)).toBeUndefined();
    expect(refreshed.data?.refreshSession.session.mfaRequired).toBe(true);
    expect(refreshed.data?.refreshSession.member).toBeNull();
    const verified = await api.graphql<{ verifyMfa: Answer }>(
      `mutation ($code: String!) {
        verifyMfa(code: $code) { session { ${SESSION_FIELDS} mfaRequired } member { ${MEMBER_FIELDS} } }
      }`,
      { code: await totpCode(member.secret, Date.now() + 30_000) },
      { token: refreshed.data?.refreshSession.session.accessToken ?? '' },
    );
    expect(verified.errors, JSON.stringify(verified.errors)).toBeUndefined();
    expect(verified.data?.verifyMfa.session.mfaRequired).toBe(false);
    expect(verified.data?.verifyMfa.member?.user.birthday).toBe('1990-04-02');
  });

  it('B13 the aal2 session changes what the password alone could not', async () => {
    const member = await memberWithMfa();
    const token = await passCode(member, (await passwordOnly(member)).accessToken);
    const username = `${member.member.profile.username}.b13`;
    const changed = await api.graphql<{ changeUsername: { username: string } }>(
      'mutation ($username: String!) { changeUsername(username: $username) { username } }',
      { username },
      { token },
    );
    expect(changed.errors).toBeUndefined();
    expect(changed.data?.changeUsername.username).toBe(username);
    const link = await api.graphql(
      'mutation { addLink(input: { title: "Church", url: "https://church.example/" }) { url } }',
      {},
      { token },
    );
    expect(link.data).toEqual({ addLink: { url: 'https://church.example/' } });
    const stats = await api.graphql('{ pageStats { days } }', {}, { token });
    expect(stats.errors).toBeUndefined();
  });

  it('B13 a member without a factor is not asked for one, and signing out from aal1 ends that session only', async () => {
    const plain = await signUpMember(api);
    const added = await api.graphql('{ pageStats { days } }', {}, { token: plain.session.accessToken });
    expect(added.errors).toBeUndefined();

    const member = await memberWithMfa();
    const other = await passCode(member, (await passwordOnly(member)).accessToken);
    const aal1 = await passwordOnly(member);
    const out = await api.graphql('mutation { logout(scope: global) }', {}, { token: aal1.accessToken });
    expect(out.data).toEqual({ logout: true });
    expect(refusedCode(await api.graphql('{ mfaStatus { enabled } }', {}, { token: aal1.accessToken }))).toBe(
      'UNAUTHENTICATED',
    );
    // The member's aal2 session is still there: a password alone cannot end it.
    expect((await api.graphql('{ me { user { email } } }', {}, { token: other })).data).toEqual({
      me: { user: { email: member.email } },
    });
  });

  it('B13 the photo upload route refuses the aal1 token too', async () => {
    const member = await memberWithMfa();
    const aal1 = await passwordOnly(member);
    const response = await fetch(`${api.url}/api/photo`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${aal1.accessToken}`, 'content-type': 'image/png' },
      body: new Uint8Array([1, 2, 3]),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'MFA_REQUIRED' });
  });
});

describe('a password alone, with two-factor sign-in on (/auth/v1)', () => {
  const userRoutes = identityRoutes.filter((route) => route.guard === 'user');
  const pathOf = (path: string, factorId: string): string =>
    path.replace(':factorId', factorId).replace(/:[a-zA-Z]+/g, NIL_UUID);

  it('B13 every user route needs aal2 (403 insufficient_aal) except the partial ones, which show nothing private', async () => {
    expect(userRoutes.length).toBeGreaterThanOrEqual(8);
    const member = await memberWithMfa();
    const aal1 = await passwordOnly(member);
    // Sign-out last: it ends the session the other calls use.
    const ordered = [...userRoutes].sort((a, b) => Number(a.path === '/logout') - Number(b.path === '/logout'));
    for (const route of ordered) {
      const answer = await identityFetch(api, pathOf(route.path, member.factorId), {
        method: route.method,
        token: aal1.accessToken,
        body: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      });
      const message = `${route.method} ${route.path}: ${answer.status} ${JSON.stringify(answer.body)}`;
      if (route.assurance === 'aal2') {
        expect({ status: answer.status, code: answer.body.error_code ?? answer.body.code }, message).toEqual({
          status: 403,
          code: 'insufficient_aal',
        });
      } else {
        expect(answer.body.error_code ?? answer.body.code, message).not.toBe('insufficient_aal');
        expect(answer.status, message).toBeLessThan(500);
      }
    }

    // GET /user: the factors (what supabase-js's mfa.listFactors needs), and nothing of the profile.
    const again = await passwordOnly(member);
    const user = await identityFetch(api, '/user', { token: again.accessToken });
    expect(user.status).toBe(200);
    expect(user.body.factors).toEqual([expect.objectContaining({ id: member.factorId, status: 'verified' })]);
    expect(user.body.user_metadata).toEqual({});
    expect(JSON.stringify(user.body)).not.toContain('1990-04-02');
    // PUT /user with metadata only is refused too, and changes nothing.
    const update = await identityFetch(api, '/user', {
      method: 'PUT',
      token: again.accessToken,
      body: { data: { first: 'Mallory' } },
    });
    expect(update.status).toBe(403);

    const token = await passCode(member, again.accessToken);
    const full = await identityFetch(api, '/user', { token });
    expect((full.body.user_metadata as Record<string, unknown>).first).toBe('Grace');
    for (const route of ordered) {
      const answer = await identityFetch(api, pathOf(route.path, NIL_UUID), {
        method: route.method,
        token,
        body: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      });
      const message = `${route.method} ${route.path}: ${answer.status} ${JSON.stringify(answer.body)}`;
      expect(answer.body.error_code ?? answer.body.code, message).not.toBe('insufficient_aal');
    }
  });
});
