import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRecord } from '../../../server/src/members/user.entity.js';
import { ProfileRecord } from '../../../server/src/profiles/profile.entity.js';
import { verseCalendar } from '../../../server/src/verses/calendar.js';
import type { TestApp } from '../../support/app.js';
import { startTestApp } from '../../support/app.js';
import type { SignedUpMember } from '../../support/members.js';
import { firstError, signUpMember } from '../../support/members.js';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp({ AUTH_RATE_LIMIT_OTP: '1000' });
});
afterAll(async () => {
  await api.close();
});

const PROFILE_FIELDS = 'username name theme layout button isActive isPublic welcome versePinned';
const UPDATE = `mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { ${PROFILE_FIELDS} } }`;
const PUBLIC = `query ($username: String!, $date: String) {
  profile(username: $username) { username name plus appearance { theme layout button } verse(date: $date) { id } }
}`;

interface PublicData {
  profile: {
    username: string;
    name: string;
    plus: boolean;
    appearance: { theme: string; layout: string; button: string };
    verse: { id: string };
  } | null;
}

async function stored(member: SignedUpMember): Promise<ProfileRecord> {
  return api.dataSource.getRepository(ProfileRecord).findOneByOrFail({ uid: member.member.user.uid });
}

async function grantPlus(member: SignedUpMember): Promise<void> {
  await api.dataSource.getRepository(UserRecord).update({ uid: member.member.user.uid }, { stripeRole: 'plus' });
}

describe('updateProfile', () => {
  it('changes name, look and visibility, and visitors see it', async () => {
    const member = await signUpMember(api);
    const response = await api.graphql(
      UPDATE,
      { input: { name: '  Priscilla  ', theme: 'darkTheme', layout: 'column', button: 'outlineButton' } },
      { token: member.session.accessToken },
    );
    expect(response.data).toEqual({
      updateProfile: {
        username: member.member.profile.username,
        name: 'Priscilla',
        theme: 'darkTheme',
        layout: 'column',
        button: 'outlineButton',
        isActive: true,
        isPublic: true,
        welcome: false,
        versePinned: false,
      },
    });
    const seen = await api.graphql<PublicData>(PUBLIC, { username: member.member.profile.username });
    expect(seen.data?.profile).toMatchObject({
      name: 'Priscilla',
      appearance: { theme: 'darkTheme', layout: 'column', button: 'outlineButton' },
    });
  });

  it.each([
    { input: { theme: 'sunriseTheme' }, message: 'The Sunrise theme is part of Lampstand Plus.' },
    { input: { theme: 'gardenTheme' }, message: 'The Garden theme is part of Lampstand Plus.' },
    { input: { button: 'goldButton' }, message: 'The Gold button style is part of Lampstand Plus.' },
  ])(
    'refuses the Plus-only $input to a free member with PLUS_REQUIRED, named as the editor names it, changing nothing',
    async ({ input, message }) => {
      const member = await signUpMember(api);
      const before = await stored(member);
      const response = await api.graphql(
        UPDATE,
        { input: { ...input, name: 'Not saved' } },
        { token: member.session.accessToken },
      );
      expect(firstError(response)).toMatchObject({ code: 'PLUS_REQUIRED', message });
      expect(await stored(member)).toEqual(before);
    },
  );

  it('gives Plus members the Plus-only looks, and keeps them for their return when Plus ends', async () => {
    const member = await signUpMember(api);
    await grantPlus(member);
    const response = await api.graphql(
      UPDATE,
      { input: { theme: 'gardenTheme', button: 'goldButton' } },
      { token: member.session.accessToken },
    );
    expect(response.errors).toBeUndefined();
    const username = member.member.profile.username;
    const withPlus = await api.graphql<PublicData>(PUBLIC, { username });
    expect(withPlus.data?.profile).toMatchObject({
      plus: true,
      appearance: { theme: 'gardenTheme', button: 'goldButton' },
    });

    await api.dataSource.getRepository(UserRecord).update({ uid: member.member.user.uid }, { stripeRole: null });
    const afterPlus = await api.graphql<PublicData>(PUBLIC, { username });
    expect(afterPlus.data?.profile).toMatchObject({
      plus: false,
      appearance: { theme: 'lightTheme', button: 'normalButton' },
    });
    expect(await stored(member)).toMatchObject({ theme: 'gardenTheme', button: 'goldButton' });
  });

  it('hides the page from visitors when private or inactive, but not from its owner', async () => {
    const member = await signUpMember(api);
    const username = member.member.profile.username;
    await api.graphql(UPDATE, { input: { isPublic: false } }, { token: member.session.accessToken });
    expect((await api.graphql<PublicData>(PUBLIC, { username })).data?.profile).toBeNull();
    const own = await api.graphql<{ me: { profile: { isPublic: boolean } } }>(
      '{ me { profile { isPublic } } }',
      {},
      {
        token: member.session.accessToken,
      },
    );
    expect(own.data?.me.profile.isPublic).toBe(false);
    const inactive = await api.graphql<{ updateProfile: { isPublic: boolean; isActive: boolean } }>(
      UPDATE,
      { input: { isPublic: true, isActive: false } },
      { token: member.session.accessToken },
    );
    expect(inactive.errors).toBeUndefined();
    expect(inactive.data?.updateProfile).toMatchObject({ isPublic: true, isActive: false });
    expect(await stored(member)).toMatchObject({ isPublic: true, isActive: false });
    expect((await api.graphql<PublicData>(PUBLIC, { username })).data?.profile).toBeNull();
  });

  it.each([
    [{ name: '' }, 'input.name'],
    [{ name: '   ' }, 'input.name'],
    [{ name: 'x'.repeat(51) }, 'input.name'],
    [{ name: 'bell\u0007' }, 'input.name'],
    [{ name: '❤️'.repeat(26) }, 'input.name'],
  ])('names the field at fault for %j', async (input, field) => {
    const member = await signUpMember(api);
    const response = await api.graphql(UPDATE, { input }, { token: member.session.accessToken });
    expect(firstError(response)).toMatchObject({ code: 'BAD_USER_INPUT', field });
  });

  it('keeps names exactly as typed, markup included (the web never renders them as HTML)', async () => {
    const member = await signUpMember(api);
    const name = '<b>Dorcas</b> & "Tabitha" 🙏';
    await api.graphql(UPDATE, { input: { name } }, { token: member.session.accessToken });
    const seen = await api.graphql<PublicData>(PUBLIC, { username: member.member.profile.username });
    expect(seen.data?.profile?.name).toBe(name);
  });

  it('survives 100 concurrent updates without a busy database, and ends consistent', async () => {
    const member = await signUpMember(api);
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        api.graphql(UPDATE, { input: { name: `Name ${index}` } }, { token: member.session.accessToken }),
      ),
    );
    expect(responses.flatMap((response) => response.errors ?? [])).toEqual([]);
    const final = await stored(member);
    expect(final.name).toMatch(/^Name \d+$/);
    expect(await api.dataSource.getRepository(ProfileRecord).countBy({ uid: member.member.user.uid })).toBe(1);
  });
});

describe('changeUsername', () => {
  const CHANGE = 'mutation ($username: String!) { changeUsername(username: $username) { username } }';

  it('takes a free name (lowercased); the page moves and lookups ignore case', async () => {
    const member = await signUpMember(api);
    const chosen = `Ruth.${member.member.user.uid.slice(0, 6)}`;
    const response = await api.graphql(CHANGE, { username: chosen }, { token: member.session.accessToken });
    expect(response.data).toEqual({ changeUsername: { username: chosen.toLowerCase() } });
    expect((await api.graphql<PublicData>(PUBLIC, { username: chosen.toUpperCase() })).data?.profile?.username).toBe(
      chosen.toLowerCase(),
    );
    expect(
      (await api.graphql<PublicData>(PUBLIC, { username: member.member.profile.username })).data?.profile,
    ).toBeNull();
  });

  it("refuses another member's name with USERNAME_TAKEN", async () => {
    const member = await signUpMember(api);
    const other = await signUpMember(api);
    const response = await api.graphql(
      CHANGE,
      { username: other.member.profile.username.toUpperCase() },
      { token: member.session.accessToken },
    );
    expect(firstError(response)).toMatchObject({ code: 'USERNAME_TAKEN', field: 'username' });
    expect((await stored(member)).username).toBe(member.member.profile.username);
  });

  it.each(['ab', 'has space', 'admin', 'playground', '_leading', 'x'.repeat(31)])('refuses %j', async (username) => {
    const member = await signUpMember(api);
    const response = await api.graphql(CHANGE, { username }, { token: member.session.accessToken });
    expect(firstError(response)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'username' });
  });
});

describe('completeWelcome', () => {
  it('marks the welcome screen done', async () => {
    const member = await signUpMember(api);
    const response = await api.graphql(
      'mutation { completeWelcome { welcome } }',
      {},
      { token: member.session.accessToken },
    );
    expect(response.data).toEqual({ completeWelcome: { welcome: true } });
    expect((await stored(member)).welcome).toBe(true);
  });
});

describe('pinVerse and unpinVerse', () => {
  const PIN = 'mutation ($ref: String!) { pinVerse(ref: $ref) { versePinned } }';

  it('needs Plus', async () => {
    const member = await signUpMember(api);
    const response = await api.graphql(PIN, { ref: 'John 3:16' }, { token: member.session.accessToken });
    expect(firstError(response).code).toBe('PLUS_REQUIRED');
    expect((await stored(member)).versePinned).toBe(false);
  });

  it('keeps the pinned verse on every day, until unpinned', async () => {
    const member = await signUpMember(api);
    await grantPlus(member);
    const username = member.member.profile.username;
    expect((await api.graphql(PIN, { ref: 'Jn 3:16' }, { token: member.session.accessToken })).errors).toBeUndefined();
    for (const date of ['2030-01-01', '2030-06-15']) {
      const seen = await api.graphql<PublicData>(PUBLIC, { username, date });
      expect(seen.data?.profile?.verse.id).toBe('John.3.16');
    }
    await api.graphql('mutation { unpinVerse { versePinned } }', {}, { token: member.session.accessToken });
    const followed = await api.graphql<PublicData>(PUBLIC, { username, date: '2030-06-16' });
    expect(followed.data?.profile?.verse.id).toBe(verseCalendar['06-16']);
  });

  it('refuses a reference that names no verse', async () => {
    const member = await signUpMember(api);
    await grantPlus(member);
    const response = await api.graphql(PIN, { ref: 'Hezekiah 4:5' }, { token: member.session.accessToken });
    expect(firstError(response)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'ref' });
  });
});
