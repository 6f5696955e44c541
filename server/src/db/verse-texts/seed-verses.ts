import type { QueryRunner } from 'typeorm';
import { books } from './books.js';
import type { StoredVerse } from './kjv.js';
import { readKjv } from './kjv.js';
import { readWebBook } from './web.js';

const COLUMNS = ['id', 'book', 'chapter', 'verse', 'ref', 'text', 'translation'] as const;
const ROWS_PER_INSERT = 500;

/** The `translation` column's values, as the API's Translation enum (verses/translation.ts) names them. */
type StoredTranslation = 'KJV' | 'WEB';

async function insertVerses(
  queryRunner: QueryRunner,
  verses: readonly StoredVerse[],
  translation: StoredTranslation,
): Promise<void> {
  const postgres = queryRunner.dataSource.driver.options.type === 'postgres';
  for (let start = 0; start < verses.length; start += ROWS_PER_INSERT) {
    const parameters: (string | number)[] = [];
    const tuples = verses.slice(start, start + ROWS_PER_INSERT).map((verse) => {
      const first = parameters.length;
      parameters.push(verse.id, verse.book, verse.chapter, verse.verse, verse.ref, verse.text, translation);
      const placeholders = COLUMNS.map((_, index) => (postgres ? `$${first + index + 1}` : '?'));
      return `(${placeholders.join(', ')})`;
    });
    const columns = COLUMNS.map((column) => `"${column}"`).join(', ');
    await queryRunner.query(`INSERT INTO "verses" (${columns}) VALUES ${tuples.join(', ')}`, parameters);
  }
}

/** Loads the whole cleaned KJV text into `verses` (used by the SeedVerses migrations). */
export async function insertKjvVerses(queryRunner: QueryRunner): Promise<void> {
  await insertVerses(queryRunner, readKjv(), 'KJV');
}

/** Loads the cleaned World English Bible into `verses`, one book at a time to keep memory low. */
export async function insertWebVerses(queryRunner: QueryRunner): Promise<void> {
  for (const book of books) await insertVerses(queryRunner, readWebBook(book), 'WEB');
}
