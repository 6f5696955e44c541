import type { QueryRunner } from 'typeorm';
import { KJV_TRANSLATION, readKjv } from './kjv.js';

const COLUMNS = ['id', 'book', 'chapter', 'verse', 'ref', 'text', 'translation'] as const;
const ROWS_PER_INSERT = 500;

/** Loads the whole cleaned KJV text into `verses` (used by the SeedVerses migrations). */
export async function insertKjvVerses(queryRunner: QueryRunner): Promise<void> {
  const postgres = queryRunner.dataSource.driver.options.type === 'postgres';
  const verses = readKjv();
  for (let start = 0; start < verses.length; start += ROWS_PER_INSERT) {
    const parameters: (string | number)[] = [];
    const tuples = verses.slice(start, start + ROWS_PER_INSERT).map((verse) => {
      const first = parameters.length;
      parameters.push(verse.id, verse.book, verse.chapter, verse.verse, verse.ref, verse.text, KJV_TRANSLATION);
      const placeholders = COLUMNS.map((_, index) => (postgres ? `$${first + index + 1}` : '?'));
      return `(${placeholders.join(', ')})`;
    });
    const columns = COLUMNS.map((column) => `"${column}"`).join(', ');
    await queryRunner.query(`INSERT INTO "verses" (${columns}) VALUES ${tuples.join(', ')}`, parameters);
  }
}
