import { In } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Translation } from '../../server/src/verses/translation.js';
import { VerseRecord } from '../../server/src/verses/verse.entity.js';
import { ProfileRecord } from '../../server/src/profiles/profile.entity.js';
import { verseCalendar } from '../../server/src/verses/calendar.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { insertMember } from '../support/factories.js';
import { firstError, signUpMember } from '../support/members.js';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => {
  await api.close();
});

interface VerseData {
  id: string;
  ref: string;
  text: string;
  translation: string;
}

const LEAP_DAY_WEB = 'This is the day that Yahweh has made. We will rejoice and be glad in it!';

describe('the World English Bible', () => {
  it('gives the verse of the day in the translation asked for, the KJV when none is', async () => {
    const response = await api.graphql<{ web: VerseData; kjv: VerseData }>(
      `{ web: verseOfTheDay(date: "2028-02-29", translation: WEB) { id ref text translation }
         kjv: verseOfTheDay(date: "2028-02-29") { id ref text translation } }`,
    );
    expect(response.errors).toBeUndefined();
    expect(response.data?.web).toEqual({
      id: 'Ps.118.24',
      ref: 'Psalm 118:24',
      text: LEAP_DAY_WEB,
      translation: 'WEB',
    });
    expect(response.data?.kjv).toMatchObject({ id: 'Ps.118.24', translation: 'KJV' });
  });

  it('looks references up in either translation', async () => {
    const response = await api.graphql<{ web: VerseData; kjv: VerseData }>(
      '{ web: verse(ref: "Jn 3:16", translation: WEB) { text translation } kjv: verse(ref: "Jn 3:16", translation: KJV) { text translation } }',
    );
    expect(response.data?.web.text).toMatch(/^For God so loved the world, that he gave his one and only Son/);
    expect(response.data?.web.translation).toBe('WEB');
    expect(response.data?.kjv.text).toMatch(/^For God so loved the world, that he gave his only begotten Son/);
  });

  it("gives the KJV's text, marked KJV, where the WEB leaves a verse out", async () => {
    const response = await api.graphql<{ verse: VerseData }>(
      '{ verse(ref: "Acts 8:37", translation: WEB) { text translation } }',
    );
    expect(response.data?.verse.translation).toBe('KJV');
    expect(response.data?.verse.text).toMatch(/^And Philip said/);
  });

  it('has every verse of the calendar stored in both translations', async () => {
    const ids = [...new Set(Object.values(verseCalendar))];
    const verses = api.dataSource.getRepository(VerseRecord);
    for (const translation of [Translation.KJV, Translation.WEB]) {
      const stored = await verses.findBy({ translation, id: In(ids) });
      expect(stored.map((verse) => verse.id).sort(), translation).toEqual([...ids].sort());
      expect(stored.filter((verse) => verse.text.trim().length === 0)).toEqual([]);
    }
  });

  it('refuses a translation it does not hold, with a clear error', async () => {
    const response = await api.graphql('{ verseOfTheDay(translation: NIV) { id } }');
    expect(response.status).toBe(400);
    expect(firstError(response).code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe("a member's translation", () => {
  it('shows the page in the translation the member chose, unless the reader asks for another', async () => {
    const { session, member } = await signUpMember(api);
    const token = session.accessToken;
    const chosen = await api.graphql<{ updateProfile: { translation: string } }>(
      'mutation { updateProfile(input: { translation: WEB }) { translation } }',
      {},
      { token },
    );
    expect(chosen.data?.updateProfile.translation).toBe('WEB');
    const response = await api.graphql<{
      profile: { translation: string; own: VerseData; reader: VerseData };
      verseOfTheDay: VerseData;
    }>(
      `query ($username: String!) {
        profile(username: $username) {
          translation
          own: verse(date: "2028-02-29") { id text translation }
          reader: verse(date: "2028-02-29", translation: KJV) { id translation }
        }
        verseOfTheDay(date: "2028-02-29", translation: WEB) { id text translation }
      }`,
      { username: member.profile.username },
    );
    expect(response.data?.profile.translation).toBe('WEB');
    expect(response.data?.profile.own).toEqual(response.data?.verseOfTheDay);
    expect(response.data?.profile.reader).toEqual({ id: 'Ps.118.24', translation: 'KJV' });
  });

  it('refuses an unknown translation in updateProfile and changes nothing', async () => {
    const { session, member } = await signUpMember(api);
    const response = await api.graphql(
      'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { translation } }',
      { input: { translation: 'ESV', name: 'Changed' } },
      { token: session.accessToken },
    );
    expect(response.errors).toBeDefined();
    const stored = await api.dataSource.getRepository(ProfileRecord).findOneByOrFail({ uid: member.user.uid });
    expect(stored).toMatchObject({ translation: 'KJV', name: member.profile.name });
  });

  it("shows a Plus member's pinned verse in the reader's translation", async () => {
    const { profile } = await insertMember(api.dataSource, {
      user: { stripeRole: 'plus' },
      profile: {
        versePinned: true,
        verseId: 'Ps.23.1',
        verseRef: 'Psalm 23:1',
        verseText: 'The LORD is my shepherd; I shall not want.',
      },
    });
    const response = await api.graphql<{ profile: { verse: VerseData } }>(
      `query ($username: String!) { profile(username: $username) { verse(translation: WEB) { id text translation } } }`,
      { username: profile.username },
    );
    expect(response.data?.profile.verse).toEqual({
      id: 'Ps.23.1',
      text: 'Yahweh is my shepherd: I shall lack nothing.',
      translation: 'WEB',
    });
  });
});

describe("the page's verse on the sign-up day (issue 16, item 1)", () => {
  it("is the verse of the day in the viewer's time zone, not the stored default", async () => {
    const { member } = await signUpMember(api);
    const timeZone = 'Pacific/Kiritimati';
    const response = await api.graphql<{ profile: { verse: VerseData }; verseOfTheDay: VerseData }>(
      `query ($username: String!, $timeZone: String) {
        profile(username: $username) { verse(timeZone: $timeZone) { id ref text translation } }
        verseOfTheDay(timeZone: $timeZone) { id ref text translation }
      }`,
      { username: member.profile.username, timeZone },
    );
    expect(response.data?.profile.verse).toEqual(response.data?.verseOfTheDay);
    const stored = await api.dataSource.getRepository(ProfileRecord).findOneByOrFail({ uid: member.user.uid });
    expect(stored.verseId === 'Heb.3.4' || stored.verseId === response.data?.verseOfTheDay.id).toBe(true);
  });
});
