import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProfileRecord } from '../../server/src/profiles/profile.entity.js';
import { verseCalendar } from '../../server/src/verses/calendar.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { insertMember } from '../support/factories.js';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => {
  await api.close();
});

const PROFILE = `query ($username: String!, $date: String) {
  profile(username: $username) {
    username name plus joined
    appearance { theme layout button }
    versePinned
    verse(date: $date) { id ref text }
  }
}`;

interface PublicProfileData {
  profile: {
    username: string;
    name: string;
    plus: boolean;
    versePinned: boolean;
    appearance: { theme: string; layout: string; button: string };
    verse: { id: string; ref: string; text: string };
  } | null;
}

describe('the public profile', () => {
  it('is found by username in any letter case', async () => {
    const { profile } = await insertMember(api.dataSource, { profile: { name: 'Lydia', layout: 'column' as never } });
    const response = await api.graphql<PublicProfileData>(PROFILE, { username: profile.username.toUpperCase() });
    expect(response.errors).toBeUndefined();
    expect(response.data?.profile).toMatchObject({
      username: profile.username,
      name: 'Lydia',
      plus: false,
      appearance: { theme: 'lightTheme', layout: 'column', button: 'normalButton' },
    });
  });

  it.each([
    [{ isPublic: false }, 'private'],
    [{ isActive: false }, 'inactive'],
  ])('is null when the profile is %j (%s)', async (settings, _kind) => {
    const { profile } = await insertMember(api.dataSource, { profile: settings });
    const response = await api.graphql<PublicProfileData>(PROFILE, { username: profile.username });
    expect(response.data).toEqual({ profile: null });
  });

  it('is null for an account being deleted, and for names nobody has', async () => {
    const { profile } = await insertMember(api.dataSource, { user: { deletingAt: new Date() } });
    expect((await api.graphql<PublicProfileData>(PROFILE, { username: profile.username })).data).toEqual({
      profile: null,
    });
    expect((await api.graphql<PublicProfileData>(PROFILE, { username: 'nobody.here' })).data).toEqual({
      profile: null,
    });
  });

  it.each(['email', 'birthday', 'uid', 'first', 'platform', 'isPublic', 'welcome'])(
    'offers no private field %s to visitors',
    async (field) => {
      const response = await api.graphql(`{ profile(username: "x") { ${field} } }`);
      expect(response.status).toBe(400);
      expect(response.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    },
  );

  it("renders a free member's Plus-only choices as the defaults, and keeps the choices", async () => {
    const { profile } = await insertMember(api.dataSource, {
      profile: { theme: 'gardenTheme' as never, button: 'goldButton' as never },
    });
    const response = await api.graphql<PublicProfileData>(PROFILE, { username: profile.username });
    expect(response.data?.profile?.appearance).toMatchObject({ theme: 'lightTheme', button: 'normalButton' });
    const stored = await api.dataSource.getRepository(ProfileRecord).findOneByOrFail({ uid: profile.uid });
    expect(stored).toMatchObject({ theme: 'gardenTheme', button: 'goldButton' });
  });

  it("shows a Plus member's choices and badge", async () => {
    const { profile } = await insertMember(api.dataSource, {
      user: { stripeRole: 'plus' },
      profile: { theme: 'sunriseTheme' as never, button: 'goldButton' as never },
    });
    const response = await api.graphql<PublicProfileData>(PROFILE, { username: profile.username });
    expect(response.data?.profile).toMatchObject({
      plus: true,
      appearance: { theme: 'sunriseTheme', button: 'goldButton' },
    });
  });
});

describe("a profile's verse", () => {
  it('shows the verse of the day on the day the default was stored, as the landing page does', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const { profile } = await insertMember(api.dataSource, { profile: { verseDay: today } });
    const response = await api.graphql<PublicProfileData & { verseOfTheDay: { id: string } }>(
      `query ($username: String!, $date: String) {
        profile(username: $username) { verse(date: $date) { id } }
        verseOfTheDay(date: $date) { id }
      }`,
      { username: profile.username, date: today },
    );
    expect(response.data?.profile?.verse.id).toBe(verseCalendar[today.slice(5)]);
    expect(response.data?.profile?.verse.id).toBe(response.data?.verseOfTheDay.id);
    // The record keeps the original's default as its first value.
    const stored = await api.dataSource.getRepository(ProfileRecord).findOneByOrFail({ uid: profile.uid });
    expect(stored).toMatchObject({ verseId: 'Heb.3.4', verseDay: today });
  });

  it('follows the verse of the day when read on a later day, and stores it', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const { profile } = await insertMember(api.dataSource, { profile: { verseDay: yesterday } });
    const response = await api.graphql<PublicProfileData>(PROFILE, { username: profile.username, date: today });
    expect(response.data?.profile?.verse.id).toBe(verseCalendar[today.slice(5)]);
    const stored = await api.dataSource.getRepository(ProfileRecord).findOneByOrFail({ uid: profile.uid });
    expect(stored).toMatchObject({ verseId: verseCalendar[today.slice(5)], verseDay: today });
  });

  it('shows a future date its verse without moving the stored one (reading changes nothing ahead of time)', async () => {
    const { profile } = await insertMember(api.dataSource, { profile: { verseDay: '2026-01-01' } });
    const response = await api.graphql<PublicProfileData>(PROFILE, { username: profile.username, date: '9999-12-31' });
    expect(response.data?.profile?.verse.id).toBe(verseCalendar['12-31']);
    const stored = await api.dataSource.getRepository(ProfileRecord).findOneByOrFail({ uid: profile.uid });
    expect(stored).toMatchObject({ verseId: 'Heb.3.4', verseDay: '2026-01-01' });
  });

  it("keeps a Plus member's pinned verse on every day", async () => {
    const { profile } = await insertMember(api.dataSource, {
      user: { stripeRole: 'plus' },
      profile: {
        verseId: 'John.3.16',
        verseRef: 'John 3:16',
        verseText: 'For God so loved…',
        versePinned: true,
        verseDay: '2028-01-01',
      },
    });
    const response = await api.graphql<PublicProfileData>(PROFILE, { username: profile.username, date: '2028-03-01' });
    expect(response.data?.profile?.verse.id).toBe('John.3.16');
    expect(response.data?.profile?.versePinned).toBe(true);
  });

  it('shows the verse of the day when a pinned verse outlived Plus, keeping the pin for a return', async () => {
    const { profile } = await insertMember(api.dataSource, {
      profile: {
        verseId: 'John.3.16',
        verseRef: 'John 3:16',
        verseText: 'For God so loved…',
        versePinned: true,
        verseDay: '2028-01-01',
      },
    });
    const response = await api.graphql<PublicProfileData>(PROFILE, { username: profile.username, date: '2028-03-01' });
    expect(response.data?.profile?.verse.id).toBe(verseCalendar['03-01']);
    expect(response.data?.profile?.versePinned).toBe(false);
    const stored = await api.dataSource.getRepository(ProfileRecord).findOneByOrFail({ uid: profile.uid });
    expect(stored).toMatchObject({ verseId: 'John.3.16', versePinned: true });
  });
});
