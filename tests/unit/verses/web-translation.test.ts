import { describe, expect, it } from 'vitest';
import { books } from '../../../server/src/db/verse-texts/books.js';
import { verseCalendar } from '../../../server/src/verses/calendar.js';
import { clockIn, latestToday } from '../../../server/src/rules/dates.js';
import { readKjv } from '../../../server/src/db/verse-texts/kjv.js';
import { cleanWebText, readWebBook } from '../../../server/src/db/verse-texts/web.js';

const kjv = new Map(readKjv().map((verse) => [verse.id, verse]));
const web = new Map(books.flatMap((book) => readWebBook(book)).map((verse) => [verse.id, verse]));

describe('the World English Bible text', () => {
  it('has every book of the canon and nearly every verse of the KJV', () => {
    expect(new Set([...web.values()].map((verse) => verse.book)).size).toBe(66);
    const missing = [...kjv.keys()].filter((id) => !web.has(id));
    // The WEB leaves out later additions (Acts 8:37, Luke 17:36, …) and moves Romans 16:25–27 to 14:24–26.
    expect(missing.sort()).toEqual([
      'Acts.15.34',
      'Acts.24.7',
      'Acts.8.37',
      'Luke.17.36',
      'Rom.16.25',
      'Rom.16.26',
      'Rom.16.27',
    ]);
  });

  it('has a text for every verse of the verse calendar', () => {
    const missing = Object.entries(verseCalendar).filter(([, id]) => !web.get(id)?.text);
    expect(missing).toEqual([]);
  });

  it('is plain, tidy text: no markup, no doubled or edge spaces, nothing empty', () => {
    const untidy = [...web.values()].filter(
      (verse) => verse.text.length === 0 || /[#[\]<>{}|\\]|\s{2}|^\s|\s$/.test(verse.text),
    );
    expect(untidy).toEqual([]);
    expect(web.get('John.3.16')?.text).toBe(
      'For God so loved the world, that he gave his one and only Son, that whoever believes in him should not perish, but have eternal life.',
    );
  });

  it('joins the lines of poetry into one verse', () => {
    expect(web.get('Ps.118.24')?.text).toBe('This is the day that Yahweh has made. We will rejoice and be glad in it!');
    expect(web.get('Ps.118.24')?.ref).toBe('Psalm 118:24');
    expect(cleanWebText('  Yahweh is my shepherd:\n I shall lack nothing.  ')).toBe(
      'Yahweh is my shepherd: I shall lack nothing.',
    );
  });
});

describe('clocks in time zones', () => {
  it('reads the date and hour where the member is', () => {
    const now = new Date('2026-11-26T06:05:00Z');
    expect(clockIn('Europe/Oslo', now)).toEqual({ date: '2026-11-26', hour: 7, minute: 5 });
    expect(clockIn('America/Chicago', now)).toEqual({ date: '2026-11-26', hour: 0, minute: 5 });
    expect(clockIn('Pacific/Pago_Pago', now)).toEqual({ date: '2026-11-25', hour: 19, minute: 5 });
  });

  it('knows the latest date anywhere on Earth', () => {
    expect(latestToday(new Date('2026-11-25T09:59:00Z'))).toBe('2026-11-25');
    expect(latestToday(new Date('2026-11-25T10:00:00Z'))).toBe('2026-11-26');
  });
});
