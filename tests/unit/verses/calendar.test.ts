import { describe, expect, it } from 'vitest';
import { books, booksByOsis } from '../../../server/src/db/verse-texts/books.js';
import { verseCalendar } from '../../../server/src/verses/calendar.js';
import { cleanKjvText, readKjv } from '../../../server/src/db/verse-texts/kjv.js';

const kjv = new Map(readKjv().map((verse) => [verse.id, verse]));

function monthDaysOfLeapYear(): string[] {
  const days: string[] = [];
  for (let day = new Date(Date.UTC(2028, 0, 1)); day.getUTCFullYear() === 2028; day.setUTCDate(day.getUTCDate() + 1)) {
    days.push(day.toISOString().slice(5, 10));
  }
  return days;
}

describe('the verse calendar', () => {
  it('has exactly one verse for every month-day, Feb 29 included', () => {
    const days = monthDaysOfLeapYear();
    expect(days).toHaveLength(366);
    expect(Object.keys(verseCalendar).sort()).toEqual(days);
    expect(verseCalendar['02-29']).toBeDefined();
  });

  it('never repeats a verse', () => {
    const references = Object.values(verseCalendar);
    expect(new Set(references).size).toBe(366);
  });

  it('names only verses that exist in the KJV text', () => {
    const missing = Object.entries(verseCalendar).filter(([, id]) => !kjv.has(id));
    expect(missing).toEqual([]);
  });

  it('is varied across the Bible', () => {
    const counts = new Map<string, number>();
    for (const id of Object.values(verseCalendar)) {
      const book = id.split('.')[0] ?? '';
      counts.set(book, (counts.get(book) ?? 0) + 1);
    }
    const testaments = [...counts].reduce(
      (sum, [book, count]) => {
        const testament = booksByOsis.get(book)?.testament ?? 'OT';
        sum[testament] += count;
        return sum;
      },
      { OT: 0, NT: 0 },
    );
    expect(counts.size).toBeGreaterThanOrEqual(40);
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(366 * 0.15);
    expect(testaments.OT).toBeGreaterThan(120);
    expect(testaments.NT).toBeGreaterThan(120);
  });

  it('gives verses that end as a sentence or clause, never mid-list', () => {
    const dangling = Object.entries(verseCalendar).filter(([, id]) => (kjv.get(id)?.text ?? ',').endsWith(','));
    expect(dangling).toEqual([]);
  });
});

describe('the KJV text', () => {
  it('holds all 31,102 verses of the 66 books', () => {
    expect(kjv.size).toBe(31102);
    expect(new Set([...kjv.values()].map((verse) => verse.book)).size).toBe(books.length);
  });

  it('resolves Hebrews 3:4 to its text without italics brackets', () => {
    expect(kjv.get('Heb.3.4')).toMatchObject({
      ref: 'Hebrews 3:4',
      text: 'For every house is builded by some man; but he that built all things is God.',
    });
  });

  it('removes paragraph marks and italics brackets everywhere', () => {
    const marked = [...kjv.values()].filter((verse) => /[#[\]]/.test(verse.text));
    expect(marked).toEqual([]);
    expect(kjv.get('John.3.16')?.text.startsWith('For God so loved the world')).toBe(true);
  });

  it('cleans markup without gluing or doubling spaces', () => {
    expect(cleanKjvText('# And God said, [it was] good: and [there was] light.')).toBe(
      'And God said, it was good: and there was light.',
    );
  });

  it('uses the display names readers expect, such as Psalm and Song of Solomon', () => {
    expect(kjv.get('Ps.23.1')?.ref).toBe('Psalm 23:1');
    expect(kjv.get('Song.2.4')?.ref).toBe('Song of Solomon 2:4');
  });
});
