import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRecord } from '../../../server/src/members/user.entity.js';
import { ProfileRecord } from '../../../server/src/profiles/profile.entity.js';
import type { TestApp } from '../../support/app.js';
import { startTestApp } from '../../support/app.js';
import { uniqueEmail, GOOD_PASSWORD } from '../../support/identity.js';
import type { SignedUpMember } from '../../support/members.js';
import { firstError, SIGN_UP, signUpMember } from '../../support/members.js';

let api: TestApp;
/** One member for the refusals (which change nothing) and the accepted names (each replacing the last). */
let member: SignedUpMember;
beforeAll(async () => {
  api = await startTestApp({ AUTH_RATE_LIMIT_OTP: '1000' });
  member = await signUpMember(api);
});
afterAll(async () => {
  await api.close();
});

const UPDATE = 'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { name bio } }';
const CHANGE_USERNAME = 'mutation ($username: String!) { changeUsername(username: $username) { username } }';

async function stored(member: SignedUpMember): Promise<ProfileRecord> {
  return api.dataSource.getRepository(ProfileRecord).findOneByOrFail({ uid: member.member.user.uid });
}

/** A random tail without vowels or digits, so that it spells no staff word. */
function consonants(length: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(length)), (byte) => 'bcdfgkmnpqrvwxz'.charAt(byte % 15)).join(
    '',
  );
}

const REFUSED_NAMES = [
  ['\u202Eevil', 'DIRECTION_CONTROL', 'A name cannot contain text-direction controls.'],
  ['Grace\u2066', 'DIRECTION_CONTROL', 'A name cannot contain text-direction controls.'],
  ['\u200FGrace', 'DIRECTION_CONTROL', 'A name cannot contain text-direction controls.'],
  ['Admin\u200B', 'INVISIBLE_CHARACTER', 'A name cannot contain invisible characters.'],
  ['Ad\u2060min', 'INVISIBLE_CHARACTER', 'A name cannot contain invisible characters.'],
  ['Ru\uFEFFth', 'INVISIBLE_CHARACTER', 'A name cannot contain invisible characters.'],
  [`Z${'\u0301'.repeat(49)}`, 'STACKED_MARKS', 'A name can have at most 3 accents or marks on one letter.'],
  [`Ho${'\u0336\u0335'.repeat(2)}pe`, 'STACKED_MARKS', 'A name can have at most 3 accents or marks on one letter.'],
] as const;

describe('display names', () => {
  it.each(REFUSED_NAMES)(
    'sign-up refuses the first name %j (%s) and creates nothing',
    async (first, reason, message) => {
      const email = uniqueEmail();
      const response = await api.graphql(SIGN_UP, {
        input: { email, password: GOOD_PASSWORD, first, platform: 'web' },
      });
      expect(firstError(response)).toEqual({ code: 'BAD_USER_INPUT', field: 'input.first', reason, message });
      expect(await api.dataSource.getRepository(UserRecord).findOneBy({ email })).toBeNull();
    },
  );

  it.each(REFUSED_NAMES)(
    'updateProfile refuses the name %j (%s) and changes nothing',
    async (name, reason, message) => {
      const before = await stored(member);
      const response = await api.graphql(
        UPDATE,
        { input: { name, bio: 'new bio' } },
        { token: member.session.accessToken },
      );
      expect(firstError(response)).toEqual({ code: 'BAD_USER_INPUT', field: 'input.name', reason, message });
      expect(await stored(member)).toMatchObject({ name: before.name, bio: before.bio });
    },
  );

  it.each([
    ['e\u0301lodie', 'élodie'],
    ['Nguyê\u0303n', 'Nguyễn'],
    ['👨\u200D👩\u200D👧 Family', '👨\u200D👩\u200D👧 Family'],
    ['❤️ Joy', '❤️ Joy'],
    ['می\u200Cخواهم', 'می\u200Cخواهم'],
    ['Ἰωάννης', 'Ἰωάννης'],
  ])('accepts %j, stored in NFC as %j', async (name, expected) => {
    const response = await api.graphql<{ updateProfile: { name: string } }>(
      UPDATE,
      { input: { name } },
      { token: member.session.accessToken },
    );
    expect(response.errors).toBeUndefined();
    expect(response.data?.updateProfile.name).toBe(expected);
    expect((await stored(member)).name).toBe(expected);
  });

  it('lets a member whose name met the older rules keep it and change the rest of the page', async () => {
    const member = await signUpMember(api, { first: 'Ada' });
    await api.dataSource.getRepository(ProfileRecord).update({ uid: member.member.user.uid }, { name: 'Admin\u200B' });
    const response = await api.graphql(
      UPDATE,
      { input: { name: 'Admin\u200B', bio: 'Still here' } },
      { token: member.session.accessToken },
    );
    expect(response.errors).toBeUndefined();
    expect(await stored(member)).toMatchObject({ name: 'Admin\u200B', bio: 'Still here' });
  });
});

describe('usernames', () => {
  it.each([
    'support.team',
    'security.team',
    'official.support',
    'staff_team',
    'adm1n',
    'supp0rt',
    '5t4ff',
    'm0der4t0r',
    '0ff1c14l',
    'the.help.desk',
    'grace_admin',
    'badminton',
    'lamp.stand',
    'h3lp',
  ])('refuses %j, which holds a staff word, with RESERVED_USERNAME and changes nothing', async (username) => {
    const before = (await stored(member)).username;
    const response = await api.graphql(CHANGE_USERNAME, { username }, { token: member.session.accessToken });
    expect(firstError(response)).toEqual({
      code: 'BAD_USER_INPUT',
      field: 'username',
      reason: 'RESERVED_USERNAME',
      message: `"${username}" is reserved. Please choose another username.`,
    });
    expect((await stored(member)).username).toBe(before);
  });

  it('refuses a staff word at sign-up before the identity account is made', async () => {
    const email = uniqueEmail();
    const response = await api.graphql(SIGN_UP, {
      input: { email, password: GOOD_PASSWORD, first: 'Tess', platform: 'web', username: 'Team.Tess' },
    });
    expect(firstError(response)).toEqual({
      code: 'BAD_USER_INPUT',
      field: 'input.username',
      reason: 'RESERVED_USERNAME',
      message: '"team.tess" is reserved. Please choose another username.',
    });
    expect(await api.dataSource.getRepository(UserRecord).findOneBy({ email })).toBeNull();
  });

  it.each(['grace.hopper', 'lydia_1999', 'psalm23', 'mary.m'])('accepts the ordinary %j', async (username) => {
    const chosen = `${username}_${consonants(5)}`;
    const response = await api.graphql(CHANGE_USERNAME, { username: chosen }, { token: member.session.accessToken });
    expect(response.errors).toBeUndefined();
    expect((await stored(member)).username).toBe(chosen);
  });

  it('leaves an existing member with a now-reserved username their page', async () => {
    const member = await signUpMember(api);
    const old = `support.team_${consonants(5)}`;
    await api.dataSource.getRepository(ProfileRecord).update({ uid: member.member.user.uid }, { username: old });
    const seen = await api.graphql<{ profile: { username: string } | null }>(
      'query ($username: String!) { profile(username: $username) { username } }',
      { username: old },
    );
    expect(seen.data?.profile?.username).toBe(old);
    const response = await api.graphql(
      UPDATE,
      { input: { bio: 'Unchanged handle' } },
      { token: member.session.accessToken },
    );
    expect(response.errors).toBeUndefined();
    expect(await stored(member)).toMatchObject({ username: old, bio: 'Unchanged handle' });
  });
});
