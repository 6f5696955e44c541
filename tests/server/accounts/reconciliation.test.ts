import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemberRecords } from '../../../server/src/accounts/member-records.js';
import { AccountReconciler } from '../../../server/src/accounts/reconciler.js';
import { SIGNED_UP_MARKER } from '../../../server/src/accounts/signup-checks.js';
import { UserRecord } from '../../../server/src/members/user.entity.js';
import { codePoints } from '../../../server/src/db/columns.js';
import { IdentityClient } from '../../../server/src/identity/identity.client.js';
import { ProfileRecord } from '../../../server/src/profiles/profile.entity.js';
import { VerseRecord } from '../../../server/src/verses/verse.entity.js';
import { VerseService } from '../../../server/src/verses/verse.service.js';
import type { TestApp } from '../../support/app.js';
import { startTestApp } from '../../support/app.js';
import { GOOD_PASSWORD, identityKeys, serviceClient, uniqueEmail } from '../../support/identity.js';
import type { MemberData } from '../../support/members.js';
import { firstError, LOGIN, signUpMember } from '../../support/members.js';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp({ AUTH_RATE_LIMIT_OTP: '1000' });
});
afterAll(async () => {
  await api.close();
});

/** The account service of the test app, reading identity accounts through `fetch`. */
function accounts(fetch: typeof globalThis.fetch = globalThis.fetch): AccountReconciler {
  const identity = new IdentityClient({ url: api.url, ...identityKeys(api), fetch });
  const verses = new VerseService(api.dataSource.getRepository(VerseRecord));
  const records = new MemberRecords(api.dataSource, identity, verses, [], { log: api.app.log });
  return new AccountReconciler(api.dataSource, identity, records, api.app.log);
}

/**
 * An identity account as a sign-up that crashed before its records leaves it: with our sign-up's
 * marker in its metadata (`signedUpHere: false` for another app's user of a shared identity service).
 */
async function createIdentityAccount(
  metadata: Record<string, unknown> = { first: 'Orphan' },
  options: { signedUpHere?: boolean } = {},
): Promise<string> {
  const { data, error } = await serviceClient(api).auth.admin.createUser({
    email: uniqueEmail('orphan'),
    password: GOOD_PASSWORD,
    email_confirm: true,
    user_metadata: options.signedUpHere === false ? metadata : { ...metadata, [SIGNED_UP_MARKER]: 1 },
  });
  if (error) throw new Error(`could not create an identity account: ${error.message}`);
  return data.user.id;
}

const hasRecords = async (uid: string) =>
  (await api.dataSource.getRepository(UserRecord).existsBy({ uid })) &&
  (await api.dataSource.getRepository(ProfileRecord).existsBy({ uid }));

describe('the reconciliation', () => {
  it('reads every page of identity accounts, however many there are', async () => {
    const orphans = await Promise.all(Array.from({ length: 23 }, () => createIdentityAccount()));
    const member = await signUpMember(api);
    const report = await accounts().reconcile(0, { pageSize: 5 });
    expect(report.failed).toBe(0);
    expect(report.created).toBeGreaterThanOrEqual(23);
    for (const uid of orphans) expect(await hasRecords(uid)).toBe(true);
    expect(await hasRecords(member.member.user.uid)).toBe(true);
  });

  it('keeps a live account that a page of the listing missed', async () => {
    const member = await signUpMember(api);
    const uid = member.member.user.uid;
    await api.dataSource.getRepository(UserRecord).update({ uid }, { joined: new Date(Date.now() - 3_600_000) });
    // The listing is paged by offset: an account deleted meanwhile moves the next one a page up.
    const missingOne: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = new URL(new Request(input, init).url);
      if (!url.pathname.endsWith('/admin/users')) return response;
      const body = (await response.json()) as { users: { id: string }[] };
      body.users = body.users.filter((user) => user.id !== uid);
      return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
    };
    await accounts(missingOne).reconcile(0);
    expect(await hasRecords(uid)).toBe(true);
    const { error } = await serviceClient(api).auth.admin.getUserById(uid);
    expect(error).toBeNull();
  });

  it('does not bring back an account whose deletion finished after the listing', async () => {
    const uid = await createIdentityAccount();
    // The member's deletion removes the identity account (then the records) while the pass is
    // between reading the listing and repairing what it found.
    const deletedAfterListing: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const url = new URL(new Request(input, init).url);
      if (url.pathname.endsWith('/admin/users')) {
        const { error } = await serviceClient(api).auth.admin.deleteUser(uid);
        if (error && error.code !== 'user_not_found') throw error;
      }
      return response;
    };
    const report = await accounts(deletedAfterListing).reconcile(0);
    expect(report.failed).toBe(0);
    expect(await api.dataSource.getRepository(UserRecord).existsBy({ uid })).toBe(false);
    expect(await api.dataSource.getRepository(ProfileRecord).existsBy({ uid })).toBe(false);
  });

  it('rebuilds records only from metadata that meets the sign-up rules (B5)', async () => {
    const uid = await createIdentityAccount({
      first: 'Kid\u0007',
      birthday: new Date().toISOString().slice(0, 10),
      platform: 'P'.repeat(40),
      platformID: 'y'.repeat(200),
      day: '9999-99-99',
    });
    await accounts().reconcile(0);
    const user = await api.dataSource.getRepository(UserRecord).findOneByOrFail({ uid });
    expect(user).toMatchObject({ birthday: null, platform: 'api', platformID: null });
    expect(user.first).toMatch(/^orphan-[0-9a-f]+$/);
  });

  it('creates nothing for an identity account that Lampstand did not sign up', async () => {
    // Another app's user on the same Supabase project, with details that look like ours.
    const foreign = await createIdentityAccount(
      { first: 'Neighbour', platform: 'web', day: '2025-01-01' },
      { signedUpHere: false },
    );
    const crashed = await createIdentityAccount();
    const report = await accounts().reconcile(0);
    expect(report.failed).toBe(0);
    expect(await api.dataSource.getRepository(UserRecord).existsBy({ uid: foreign })).toBe(false);
    expect(await api.dataSource.getRepository(ProfileRecord).existsBy({ uid: foreign })).toBe(false);
    expect(await hasRecords(crashed)).toBe(true);
    const { error } = await serviceClient(api).auth.admin.getUserById(foreign);
    expect(error).toBeNull();
  });

  it('gives a member signing in with such metadata a sound account, not an error', async () => {
    const email = uniqueEmail('crafted');
    await serviceClient(api).auth.admin.createUser({
      email,
      password: GOOD_PASSWORD,
      email_confirm: true,
      user_metadata: { first: '❤️'.repeat(40), platform: 'x y', birthday: 'soon' },
    });
    const response = await api.graphql<{ login: { member: MemberData } }>(LOGIN, {
      input: { email, password: GOOD_PASSWORD },
    });
    expect(firstError(response).code).toBeUndefined();
    expect(response.data?.login.member.user).toMatchObject({ platform: 'api', birthday: null });
    expect(codePoints(response.data?.login.member.user.first ?? '')).toBeLessThanOrEqual(50);
  });
});
