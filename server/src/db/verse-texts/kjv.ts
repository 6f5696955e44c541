import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Book } from './books.js';
import { books } from './books.js';

/** One verse of a translation's text as we store it. */
export interface StoredVerse {
  id: string;
  book: string;
  chapter: number;
  verse: number;
  ref: string;
  text: string;
}

/** A verse as every translation stores it: its OSIS id (`John.3.16`) and its reference for people (`John 3:16`). */
export function storedVerse(book: Book, chapter: number, verse: number, text: string): StoredVerse {
  return {
    id: `${book.osis}.${chapter}.${verse}`,
    book: book.osis,
    chapter,
    verse,
    ref: `${book.name} ${chapter}:${verse}`,
    text,
  };
}

/** Removes the package's markup: `#` marks a paragraph, `[…]` marks words printed in italics. */
export function cleanKjvText(raw: string): string {
  return raw.replace(/#/g, '').replace(/[[\]]/g, '').replace(/\s+/g, ' ').trim();
}

/** Reads the whole KJV (1769) from the `kjv` package, cleaned, in canonical order. */
export function readKjv(): StoredVerse[] {
  const file = createRequire(import.meta.url).resolve('kjv/json/verses-1769.json');
  const source = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  const byKjvName = new Map(books.map((entry) => [entry.kjvName, entry]));
  const verses: StoredVerse[] = [];
  for (const [key, raw] of Object.entries(source)) {
    const match = /^(.+) (\d+):(\d+)$/.exec(key);
    const book = match?.[1] === undefined ? undefined : byKjvName.get(match[1]);
    if (!match || !book) throw new Error(`Unexpected key in the kjv package: ${key}`);
    verses.push(storedVerse(book, Number(match[2]), Number(match[3]), cleanKjvText(raw)));
  }
  return verses;
}
