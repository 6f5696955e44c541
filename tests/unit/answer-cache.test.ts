import { describe, expect, it } from 'vitest';
import { changesWatchedData } from '../../server/src/db/commit-watch.js';
import { AnswerCache } from '../../server/src/graphql/answer-cache.js';

/** A clock the test moves by hand. */
function clock(start = Date.UTC(2026, 10, 25, 12, 0, 10)) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** Makes the answer for `key` the way the executor does: ticket, then store. */
function answer(cache: AnswerCache, key: string, body: string): void {
  cache.store(cache.ticket(), key, body);
}

describe('the answer cache', () => {
  it('serves a kept answer until the data may have changed', () => {
    const cache = new AnswerCache({ maxChars: 10_000 });
    answer(cache, 'a', '{"data":1}');
    expect(cache.get('a')).toBe('{"data":1}');
    cache.invalidate();
    expect(cache.get('a')).toBeUndefined();
  });

  it('does not keep an answer made while a change landed', () => {
    const cache = new AnswerCache({ maxChars: 10_000 });
    const ticket = cache.ticket();
    cache.invalidate();
    cache.store(ticket, 'a', 'old');
    expect(cache.get('a')).toBeUndefined();
    cache.store(cache.ticket(), 'a', 'new');
    expect(cache.get('a')).toBe('new');
  });

  it('empties itself when the minute turns', () => {
    const time = clock();
    const cache = new AnswerCache({ maxChars: 10_000, now: time.now });
    answer(cache, 'a', 'x');
    time.advance(49_000);
    expect(cache.get('a')).toBe('x');
    time.advance(1_000);
    expect(cache.get('a')).toBeUndefined();
    // An answer begun in the old minute and finished in the new one is not kept either.
    const ticket = cache.ticket();
    time.advance(60_000);
    cache.store(ticket, 'a', 'late');
    expect(cache.get('a')).toBeUndefined();
  });

  it('stays within its size', () => {
    const cache = new AnswerCache({ maxChars: 2_000 });
    for (let index = 0; index < 100; index++) answer(cache, `key-${index}`, 'x'.repeat(100));
    expect(cache.size).toBeGreaterThan(0);
    expect(cache.size).toBeLessThanOrEqual(2_000 / 100);
    expect(cache.get('key-99')).toBe('x'.repeat(100));
    expect(cache.get('key-0')).toBeUndefined();
  });

  it('empties itself when the data changed elsewhere, and is passed by while that cannot be read', () => {
    const time = clock();
    let version: number | undefined = 1;
    const cache = new AnswerCache({ maxChars: 10_000, now: time.now, externalVersion: () => version });
    answer(cache, 'a', 'x');
    expect(cache.get('a')).toBe('x');
    version = 2;
    // A reading is trusted for 50 ms.
    expect(cache.get('a')).toBe('x');
    time.advance(50);
    expect(cache.get('a')).toBeUndefined();
    answer(cache, 'a', 'y');
    time.advance(50);
    version = undefined;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.ticket()).toBe(-1);
    version = 2;
    expect(cache.get('a')).toBe('y');
  });

  it('serves and keeps nothing while suspended', () => {
    const cache = new AnswerCache({ maxChars: 10_000 });
    answer(cache, 'a', 'x');
    cache.suspend();
    expect(cache.get('a')).toBeUndefined();
    answer(cache, 'b', 'y');
    cache.resume();
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
    answer(cache, 'b', 'y');
    expect(cache.get('b')).toBe('y');
  });
});

describe('which statements change watched data', () => {
  const ignored = new Set(['page_view_days', 'auth_sessions']);

  it.each([
    'INSERT INTO "profiles" ("uid") VALUES (?)',
    'UPDATE "users" SET "hidden_reason" = $1',
    'DELETE FROM "links" WHERE "id" = ?',
    'INSERT OR REPLACE INTO profiles (uid) VALUES (?)',
    'ALTER TABLE "profiles" ADD "bio" text',
    'WITH moved AS (SELECT 1) UPDATE "profiles" SET name = 1',
    'UPDATE "public"."profiles" SET name = 1',
  ])('%s does', (sql) => {
    expect(changesWatchedData(sql, ignored)).toBe(true);
  });

  it.each([
    'SELECT * FROM "profiles"',
    '  select 1',
    'PRAGMA data_version',
    'BEGIN IMMEDIATE',
    'COMMIT',
    'ROLLBACK TO SAVEPOINT typeorm_1',
    'RELEASE SAVEPOINT typeorm_1',
    'INSERT INTO page_view_days (uid, day, views) VALUES (?, ?, 1) ON CONFLICT (uid, day) DO UPDATE SET views = 1',
    'DELETE FROM "auth_sessions" WHERE "user_id" = $1',
  ])('%s does not', (sql) => {
    expect(changesWatchedData(sql, ignored)).toBe(false);
  });
});
