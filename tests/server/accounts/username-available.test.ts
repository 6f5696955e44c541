import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProfileRecord } from '../../../server/src/profiles/profile.entity.js';
import { USERNAME_CHECKS_PER_MINUTE } from '../../../server/src/profiles/username-availability.service.js';
import type { TestApp } from '../../support/app.js';
import { startTestApp } from '../../support/app.js';
import { GOOD_PASSWORD, uniqueEmail } from '../../support/identity.js';
import type { SignedUpMember } from '../../support/members.js';
import { firstError, SIGN_UP, signUpMember } from '../../support/members.js';

const CHECK = 'query ($username: String!) { usernameAvailable(username: $username) { username available reason } }';

interface Answer {
  usernameAvailable: { username: string; available: boolean; reason: string | null };
}

let api: TestApp;
let member: SignedUpMember;
let addresses = 0;
beforeAll(async () => {
  api = await startTestApp({ TRUST_PROXY: 'loopback' });
  member = await signUpMember(api);
});
afterAll(async () => {
  await api.close();
});

/** Each check from an address of its own, so that the per-address limit stays out of the way. */
async function check(username: string, address = `198.51.100.${String(++addresses % 250)}`) {
  return api.graphql<Answer>(CHECK, { username }, { headers: { 'x-forwarded-for': address } });
}

/** A username nobody has: letters only, so that it spells no staff word by digits. */
function freeUsername(): string {
  return `free.${Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) => 'bcdfgkmnpqrvwxz'.charAt(byte % 15)).join('')}`;
}

describe('usernameAvailable', () => {
  it('answers available, without an account, for a free username, as it would be stored', async () => {
    const username = freeUsername();
    const response = await check(`  ${username.toUpperCase()} `);
    expect(response.errors).toBeUndefined();
    expect(response.data?.usernameAvailable).toEqual({ username, available: true, reason: null });
  });

  it('answers TAKEN for a member’s username in any letter case', async () => {
    const taken = member.member.profile.username;
    const response = await check(taken.toUpperCase());
    expect(response.data?.usernameAvailable).toEqual({ username: taken, available: false, reason: 'TAKEN' });
  });

  it.each(['admin', 'a_d_m_i_n', 'the.supp0rt', 'login', 'lampstand.team'])('answers RESERVED for %j', async (name) => {
    const response = await check(name);
    expect(response.data?.usernameAvailable).toMatchObject({ available: false, reason: 'RESERVED' });
  });

  it.each(['ab', '.dot', 'with space', 'émile', 'x'.repeat(31), ''])('answers INVALID for %j', async (name) => {
    const response = await check(name);
    expect(response.data?.usernameAvailable).toMatchObject({ available: false, reason: 'INVALID' });
  });

  it('agrees with the sign-up: a username it calls free can be taken, then it is TAKEN', async () => {
    const username = freeUsername();
    expect((await check(username)).data?.usernameAvailable.available).toBe(true);
    const signUp = await api.graphql(SIGN_UP, {
      input: { email: uniqueEmail(), password: GOOD_PASSWORD, first: 'Dorcas', username, platform: 'web' },
    });
    expect(signUp.errors).toBeUndefined();
    expect(await api.dataSource.getRepository(ProfileRecord).existsBy({ username })).toBe(true);
    expect((await check(username)).data?.usernameAvailable).toMatchObject({ available: false, reason: 'TAKEN' });
  });

  it('limits the checks of one address, and only of that address', async () => {
    const address = '203.0.113.77';
    for (let index = 0; index < USERNAME_CHECKS_PER_MINUTE; index++) {
      expect((await check(freeUsername(), address)).errors).toBeUndefined();
    }
    const refused = await check(freeUsername(), address);
    expect(firstError(refused)).toMatchObject({ code: 'RATE_LIMITED' });
    expect(refused.data ?? null).toBeNull();
    expect((await check(freeUsername(), '203.0.113.78')).errors).toBeUndefined();
  });
});
