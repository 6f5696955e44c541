import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verseCalendar } from '../../server/src/verses/calendar.js';
import { todayIn } from '../../server/src/verses/day.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';

interface VerseData {
  id: string;
  ref: string;
  text: string;
  translation: string;
}

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => {
  await api.close();
});

const VERSE_OF_THE_DAY = `query ($date: String, $timeZone: String) {
  verseOfTheDay(date: $date, timeZone: $timeZone) { id ref text translation }
}`;

describe('verseOfTheDay', () => {
  it('answers the leap day with the calendar verse and its KJV text', async () => {
    const response = await api.graphql<{ verseOfTheDay: VerseData }>(
      '{ verseOfTheDay(date: "2028-02-29") { id ref text translation } }',
    );
    expect(response.status).toBe(200);
    expect(response.errors).toBeUndefined();
    expect(response.data?.verseOfTheDay).toEqual({
      id: 'Ps.118.24',
      ref: 'Psalm 118:24',
      text: 'This is the day which the LORD hath made; we will rejoice and be glad in it.',
      translation: 'KJV',
    });
    expect(verseCalendar['02-29']).toBe('Ps.118.24');
  });

  it('gives the same verse for the same date, every time and every year', async () => {
    const first = await api.graphql<{ verseOfTheDay: VerseData }>(VERSE_OF_THE_DAY, { date: '2027-03-04' });
    const again = await api.graphql<{ verseOfTheDay: VerseData }>(VERSE_OF_THE_DAY, { date: '2027-03-04' });
    const nextYear = await api.graphql<{ verseOfTheDay: VerseData }>(VERSE_OF_THE_DAY, { date: '2031-03-04' });
    expect(first.data?.verseOfTheDay.id).toBe('Heb.3.4');
    expect(again.data).toEqual(first.data);
    expect(nextYear.data).toEqual(first.data);
  });

  it('gives 366 distinct references over the 366 days of a leap year', async () => {
    const dates: string[] = [];
    for (
      let day = new Date(Date.UTC(2028, 0, 1));
      day.getUTCFullYear() === 2028;
      day.setUTCDate(day.getUTCDate() + 1)
    ) {
      dates.push(day.toISOString().slice(0, 10));
    }
    const ids: string[] = [];
    for (let start = 0; start < dates.length; start += 25) {
      const batch = await Promise.all(
        dates
          .slice(start, start + 25)
          .map((date) => api.graphql<{ verseOfTheDay: VerseData }>(VERSE_OF_THE_DAY, { date })),
      );
      for (const response of batch) ids.push(response.data?.verseOfTheDay.id ?? 'missing');
    }
    expect(ids).toHaveLength(366);
    expect(new Set(ids).size).toBe(366);
    expect(ids).not.toContain('missing');
  });

  it("uses today's date in the given time zone", async () => {
    const zone = 'Pacific/Kiritimati';
    const before = todayIn(zone).monthDay;
    const response = await api.graphql<{ verseOfTheDay: VerseData }>(VERSE_OF_THE_DAY, { timeZone: zone });
    const after = todayIn(zone).monthDay;
    expect([verseCalendar[before], verseCalendar[after]]).toContain(response.data?.verseOfTheDay.id);
  });

  it.each([
    [{ date: '2027-02-29' }, 'date'],
    [{ date: 'tomorrow' }, 'date'],
    [{ timeZone: 'Mars/Olympus_Mons' }, 'timeZone'],
  ])('rejects %j with BAD_USER_INPUT naming the field', async (variables, field) => {
    const response = await api.graphql(VERSE_OF_THE_DAY, variables);
    expect(response.data).toBeNull();
    expect(response.errors?.[0]?.extensions).toEqual({ code: 'BAD_USER_INPUT', field });
    expect(response.errors?.[0]?.message).toMatch(field);
  });
});

describe('verse', () => {
  const VERSE = 'query ($ref: String!) { verse(ref: $ref) { id ref text } }';

  it('resolves Hebrews 3:4 to its KJV text', async () => {
    const response = await api.graphql<{ verse: { text: string } }>('{ verse(ref: "Hebrews 3:4") { text } }');
    expect(response.data).toEqual({
      verse: { text: 'For every house is builded by some man; but he that built all things is God.' },
    });
  });

  it.each([
    ['John 3:16', 'John.3.16', 'John 3:16'],
    ['Jn 3:16', 'John.3.16', 'John 3:16'],
    ['1 Cor 13:4', '1Cor.13.4', '1 Corinthians 13:4'],
  ])('reads %j', async (ref, id, display) => {
    const response = await api.graphql<{ verse: VerseData }>(VERSE, { ref });
    expect(response.data?.verse).toMatchObject({ id, ref: display });
  });

  it.each(['John 3:99', 'Hezekiah 1:1'])('is null for %j, which does not exist', async (ref) => {
    const response = await api.graphql(VERSE, { ref });
    expect(response.errors).toBeUndefined();
    expect(response.data).toEqual({ verse: null });
  });

  it('rejects a chapter or range with BAD_USER_INPUT', async () => {
    const response = await api.graphql(VERSE, { ref: 'John 3' });
    expect(response.errors?.[0]?.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'ref' });
  });
});
