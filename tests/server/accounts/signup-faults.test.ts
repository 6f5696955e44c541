import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserRecord } from '../../../server/src/members/user.entity.js';
import { ProfileRecord } from '../../../server/src/profiles/profile.entity.js';
import type { TestApp } from '../../support/app.js';
import { startTestApp } from '../../support/app.js';
import type { TestDatabase } from '../../support/database.js';
import { createTestDatabase } from '../../support/database.js';
import { failInserts, faultyFetch, slowThenStalled } from '../../support/faults.js';
import { GOOD_PASSWORD, serviceClient, uniqueEmail } from '../../support/identity.js';
import type { SignUpData } from '../../support/members.js';
import { firstError, LOGIN, SESSION_FIELDS, SIGN_UP, signUpMember } from '../../support/members.js';

/** One database that several app starts share, as a server restarting on its own database. */
let database: TestDatabase;
const started: TestApp[] = [];

beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  for (const api of started.splice(0)) await api.close();
  await database.drop();
});

async function start(...args: Parameters<typeof startTestApp>): Promise<TestApp> {
  const api = await startTestApp(args[0], args[1], { database });
  started.push(api);
  return api;
}

/** The next start on the same database, reconciling every account whatever its age. */
async function nextStart(): Promise<TestApp> {
  for (const api of started.splice(0)) await api.close();
  return start({ RECONCILE_ON_START: 'true', RECONCILE_GRACE_SECONDS: '0' });
}

async function state(api: TestApp, email: string): Promise<{ identity: boolean; user: boolean; profile: boolean }> {
  const { data } = await serviceClient(api).auth.admin.listUsers({ page: 1, perPage: 1000 });
  const account = data.users.find((user) => user.email === email);
  const user = await api.dataSource.getRepository(UserRecord).findOneBy({ email });
  const uid = account?.id ?? user?.uid;
  const profile = uid ? await api.dataSource.getRepository(ProfileRecord).findOneBy({ uid }) : null;
  return { identity: account !== undefined, user: user !== null, profile: profile !== null };
}

const consistent = (value: { identity: boolean; user: boolean; profile: boolean }) =>
  value.identity === value.user && value.user === value.profile;

function signUp(api: TestApp, email: string) {
  return api.graphql<SignUpData>(SIGN_UP, {
    input: { email, password: GOOD_PASSWORD, first: 'Lois', platform: 'web' },
  });
}

describe('sign-up under failure (F4)', () => {
  it('removes the identity account when the records cannot be written', async () => {
    const api = await start();
    const email = uniqueEmail();
    const removeFault = await failInserts(api.dataSource, 'profiles');
    const response = await signUp(api, email);
    expect(firstError(response)).toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
    expect(JSON.stringify(response.errors)).not.toMatch(/injected|INSERT|profiles|sql/i);
    expect(await state(api, email)).toEqual({ identity: false, user: false, profile: false });

    await removeFault();
    const retry = await signUp(api, email);
    expect(retry.errors).toBeUndefined();
    expect(await state(api, email)).toEqual({ identity: true, user: true, profile: true });
  });

  it('creates nothing when the identity service is unreachable, and public queries keep working', async () => {
    const unreachable = faultyFetch({ matches: (method) => method === 'POST', fault: 'unreachable' });
    const api = await start({}, { identityFetch: unreachable.fetch });
    const email = uniqueEmail();
    const response = await signUp(api, email);
    expect(firstError(response)).toMatchObject({ code: 'IDENTITY_UNAVAILABLE' });
    expect(unreachable.calls).toBeGreaterThan(0);
    expect(await state(api, email)).toEqual({ identity: false, user: false, profile: false });
    const verse = await api.graphql<{ verse: { id: string } }>('{ verse(ref: "John 3:16") { id } }');
    expect(verse.data?.verse.id).toBe('John.3.16');
  });

  it('completes a sign-up whose answer was lost, at the next start', async () => {
    const lost = faultyFetch({
      matches: (method, url) => method === 'POST' && url.pathname.endsWith('/signup'),
      fault: 'response-lost',
    });
    const api = await start({}, { identityFetch: lost.fetch });
    const email = uniqueEmail();
    expect(firstError(await signUp(api, email))).toMatchObject({ code: 'IDENTITY_UNAVAILABLE' });
    expect(await state(api, email)).toEqual({ identity: true, user: false, profile: false });

    const restarted = await nextStart();
    await expect.poll(() => state(restarted, email)).toEqual({ identity: true, user: true, profile: true });
    const user = await restarted.dataSource.getRepository(UserRecord).findOneByOrFail({ email });
    expect(user).toMatchObject({ first: 'Lois', platform: 'web' });
  });

  it('completes a sign-up whose answer was lost when the member signs in instead', async () => {
    const lost = faultyFetch({
      matches: (method, url) => method === 'POST' && url.pathname.endsWith('/signup'),
      fault: 'response-lost',
    });
    const api = await start({}, { identityFetch: lost.fetch });
    const email = uniqueEmail();
    await signUp(api, email);
    lost.enabled = false;
    const login = await api.graphql<{ login: { member: { user: { email: string } } } }>(LOGIN, {
      input: { email, password: GOOD_PASSWORD },
    });
    expect(login.errors).toBeUndefined();
    expect(login.data?.login.member.user.email).toBe(email);
    expect(await state(api, email)).toEqual({ identity: true, user: true, profile: true });
  });

  it('repairs a sign-up whose undoing failed too, at the next start', async () => {
    const deleteFails = faultyFetch({ matches: (method) => method === 'DELETE', fault: 'unreachable' });
    const api = await start({}, { identityFetch: deleteFails.fetch });
    const email = uniqueEmail();
    const removeFault = await failInserts(api.dataSource, 'profiles');
    expect(firstError(await signUp(api, email))).toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
    expect(deleteFails.calls).toBe(1);
    expect(await state(api, email)).toEqual({ identity: true, user: false, profile: false });
    await removeFault();

    const restarted = await nextStart();
    await expect.poll(() => state(restarted, email)).toSatisfy(consistent);
    expect(await state(restarted, email)).toEqual({ identity: true, user: true, profile: true });
  });

  it('deletes records whose identity account is gone, at the next start', async () => {
    const api = await start();
    const email = uniqueEmail();
    await signUp(api, email);
    const { data } = await serviceClient(api).auth.admin.listUsers({ page: 1, perPage: 1000 });
    const id = data.users.find((user) => user.email === email)?.id ?? '';
    await serviceClient(api).auth.admin.deleteUser(id);
    expect(await state(api, email)).toEqual({ identity: false, user: true, profile: true });

    const restarted = await nextStart();
    await expect
      .poll(() => state(restarted, email))
      .toEqual({
        identity: false,
        user: false,
        profile: false,
      });
  });
});

describe('an identity service that stops answering (F2)', () => {
  it('answers login and sign-up with IDENTITY_UNAVAILABLE within 5 s, while public queries keep working', async () => {
    const stalled = faultyFetch({ matches: () => true, fault: 'hang' });
    const api = await start({}, { identityFetch: stalled.fetch });
    const email = uniqueEmail();
    const started = Date.now();
    const timed = async <T>(request: Promise<T>) => ({ response: await request, ms: Date.now() - started });
    const login = timed(api.graphql(LOGIN, { input: { email: uniqueEmail(), password: GOOD_PASSWORD } }));
    const signedUp = timed(signUp(api, email));
    let identityAnswered = false;
    void Promise.allSettled([login, signedUp]).then(() => {
      identityAnswered = true;
    });

    await expect.poll(() => stalled.calls).toBe(2);
    const verse = await api.graphql<{ verse: { id: string } }>('{ verse(ref: "John 3:16") { id } }');
    expect(verse.data?.verse.id).toBe('John.3.16');
    expect(identityAnswered).toBe(false);

    for (const { response, ms } of [await login, await signedUp]) {
      expect(firstError(response)).toMatchObject({ code: 'IDENTITY_UNAVAILABLE' });
      expect(ms).toBeLessThan(5000);
    }
    expect(await state(api, email)).toEqual({ identity: false, user: false, profile: false });
  });
  describe('when its second call of an operation hangs after the first took 3 s', () => {
    const CHANGE_PASSWORD = `mutation ($input: ChangePasswordInput!) { changePassword(input: $input) { session { ${SESSION_FIELDS} } } }`;
    const RESET_PASSWORD = `mutation ($input: ResetPasswordInput!) { resetPassword(input: $input) { session { ${SESSION_FIELDS} } } }`;
    const DELETE_ACCOUNT = 'mutation ($password: String!) { deleteAccount(password: $password) }';
    const NEW_PASSWORD = 'a brand new passphrase';

    async function signsIn(api: TestApp, email: string, password: string): Promise<boolean> {
      const response = await api.graphql(LOGIN, { input: { email, password } });
      return response.errors === undefined;
    }

    /** Runs `operation` with the identity service slowing then stalling: its answer and how long it took. */
    async function underStall<T>(operation: (api: TestApp) => Promise<T>, api: TestApp, stall: { armed: boolean }) {
      stall.armed = true;
      const started = Date.now();
      const response = await operation(api);
      const ms = Date.now() - started;
      stall.armed = false;
      return { response, ms };
    }

    it('answers changePassword with IDENTITY_UNAVAILABLE within 5 s, leaving the password as it was', async () => {
      const stall = slowThenStalled(3000);
      const api = await start({}, { identityFetch: stall.fetch });
      const { email, session } = await signUpMember(api);
      const { response, ms } = await underStall(
        (app) =>
          app.graphql(
            CHANGE_PASSWORD,
            { input: { currentPassword: GOOD_PASSWORD, newPassword: NEW_PASSWORD } },
            { token: session.accessToken },
          ),
        api,
        stall,
      );
      expect(stall.calls).toBeGreaterThanOrEqual(2);
      expect(firstError(response)).toMatchObject({ code: 'IDENTITY_UNAVAILABLE' });
      expect(ms).toBeLessThan(5000);
      expect(await signsIn(api, email, GOOD_PASSWORD)).toBe(true);
      expect(await signsIn(api, email, NEW_PASSWORD)).toBe(false);
    });

    it('answers resetPassword with IDENTITY_UNAVAILABLE within 5 s, leaving the password as it was', async () => {
      const stall = slowThenStalled(3000);
      const api = await start({}, { identityFetch: stall.fetch });
      const { email } = await signUpMember(api);
      const { data } = await serviceClient(api).auth.admin.generateLink({ type: 'recovery', email });
      const token = data.properties?.hashed_token ?? '';
      const { response, ms } = await underStall(
        (app) => app.graphql(RESET_PASSWORD, { input: { token, newPassword: NEW_PASSWORD } }),
        api,
        stall,
      );
      expect(stall.calls).toBeGreaterThanOrEqual(2);
      expect(firstError(response)).toMatchObject({ code: 'IDENTITY_UNAVAILABLE' });
      expect(ms).toBeLessThan(5000);
      expect(await signsIn(api, email, GOOD_PASSWORD)).toBe(true);
      expect(await signsIn(api, email, NEW_PASSWORD)).toBe(false);
    });

    it('answers deleteAccount with IDENTITY_UNAVAILABLE within 5 s, leaving the identity account', async () => {
      const stall = slowThenStalled(3000);
      const api = await start({}, { identityFetch: stall.fetch });
      const { email, session } = await signUpMember(api);
      const { response, ms } = await underStall(
        (app) => app.graphql(DELETE_ACCOUNT, { password: GOOD_PASSWORD }, { token: session.accessToken }),
        api,
        stall,
      );
      expect(stall.calls).toBeGreaterThanOrEqual(2);
      expect(firstError(response)).toMatchObject({ code: 'IDENTITY_UNAVAILABLE' });
      expect(ms).toBeLessThan(5000);
      // The records stay marked for the next attempt or the reconciliation to finish (F4).
      expect((await state(api, email)).identity).toBe(true);
    });
  });
});
