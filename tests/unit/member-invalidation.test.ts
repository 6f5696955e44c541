import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { noticeMembers, noticePayload } from '../../server/src/db/commit-notices.js';
import { watchCommits } from '../../server/src/db/commit-watch.js';
import { buildDataSource } from '../../server/src/db/data-source.js';
import { changingMemberRows } from '../../server/src/db/member-rows.js';
import { AnswerCache } from '../../server/src/graphql/answer-cache.js';

const A = '6f1d7a52-0d0f-4d4e-9a55-0a1b2c3d4e5f';
const B = '0e9c2b1a-7f6e-4d5c-8b4a-39281706f5e4';

describe('answers dropped by the members they read', () => {
  it('drops only the answers that read a changed member, and keeps the tag made with each', () => {
    const cache = new AnswerCache({ maxChars: 10_000 });
    cache.store(cache.ticket(), 'page of a', 'a', { etag: '"tag-a"', rows: [A] });
    cache.store(cache.ticket(), 'page of b', 'b', { etag: '"tag-b"', rows: [B] });
    cache.store(cache.ticket(), 'the day', 'verse', { rows: [] });
    cache.invalidate(new Set([A]));
    expect(cache.get('page of a')).toBeUndefined();
    expect(cache.lookup('page of b')).toMatchObject({ body: 'b', etag: '"tag-b"' });
    expect(cache.get('the day')).toBe('verse');
    // A change to anything still empties it.
    cache.invalidate();
    expect(cache.size).toBe(0);
  });

  it('does not keep an answer that read a member changed while it was made, but keeps the others', () => {
    const cache = new AnswerCache({ maxChars: 10_000 });
    const ticket = cache.ticket();
    cache.invalidate([A]);
    cache.store(ticket, 'page of a', 'old a', { rows: [A] });
    cache.store(ticket, 'page of b', 'b', { rows: [B] });
    expect(cache.get('page of a')).toBeUndefined();
    expect(cache.get('page of b')).toBe('b');
    cache.store(cache.ticket(), 'page of a', 'new a', { rows: [A] });
    expect(cache.get('page of a')).toBe('new a');
  });

  it('refuses answers begun before a change it no longer remembers', () => {
    const cache = new AnswerCache({ maxChars: 10_000 });
    const ticket = cache.ticket();
    // More changed members than it remembers: the first is forgotten, and so is whether B changed.
    for (let index = 0; index <= 10_000; index++) cache.invalidate([`member-${index}`]);
    cache.store(ticket, 'page of b', 'b', { rows: [B] });
    expect(cache.get('page of b')).toBeUndefined();
  });

  it('names the changed members in a notice, and anything when they cannot be named', () => {
    expect(noticeMembers(noticePayload(new Set([A, B])))).toEqual(new Set([A, B]));
    expect(noticePayload(undefined)).toBe('');
    expect(noticeMembers('')).toBeUndefined();
    expect(noticeMembers(undefined)).toBeUndefined();
    // Nothing that could break out of the NOTIFY's quotes travels; that is a change to anything.
    expect(noticePayload(new Set(["x'; DROP TABLE users; --"]))).toBe('');
    const many = new Set(Array.from({ length: 500 }, (_value, index) => `${A}-${index}`));
    expect(noticePayload(many)).toBe('');
  });
});

describe('the commit watch, with members declared', () => {
  let dataSource: DataSource;
  let changes: (ReadonlySet<string> | undefined)[];
  let announced: (ReadonlySet<string> | undefined)[];
  beforeEach(async () => {
    dataSource = buildDataSource({ type: 'sqlite', file: ':memory:' }, { entities: [] });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE profiles (uid TEXT, name TEXT)');
    await dataSource.query('CREATE TABLE verses (ref TEXT)');
    changes = [];
    announced = [];
    watchCommits(dataSource, {
      ignoredTables: new Set(),
      memberTables: new Set(['profiles']),
      onChange: (members) => {
        changes.push(members);
      },
      announce: async (_run, members) => {
        announced.push(members);
        await Promise.resolve();
      },
    });
  });
  afterEach(async () => {
    await dataSource.destroy();
  });

  it("reports a declared write to a member's table as a change to that member alone, at commit too", async () => {
    await changingMemberRows([A], () =>
      dataSource.transaction(async (manager) => {
        await manager.query("UPDATE profiles SET name = 'x' WHERE uid = ?", [A]);
      }),
    );
    expect(changes.length).toBeGreaterThanOrEqual(2);
    for (const members of changes) expect(members).toEqual(new Set([A]));
    expect(announced).toEqual([new Set([A])]);
  });

  it('reports anything changed for a write not declared, or declared but to another table', async () => {
    await dataSource.query("UPDATE profiles SET name = 'y' WHERE uid = ?", [B]);
    await changingMemberRows([A], async () => {
      await dataSource.transaction(async (manager) => {
        await manager.query("UPDATE profiles SET name = 'x' WHERE uid = ?", [A]);
        await manager.query("INSERT INTO verses (ref) VALUES ('John 1:1')");
      });
    });
    expect(changes[0]).toBeUndefined();
    // The transaction wrote to a table that is no member's: its commit is a change to anything.
    expect(changes.at(-1)).toBeUndefined();
    expect(announced).toEqual([undefined, undefined]);
  });
});
