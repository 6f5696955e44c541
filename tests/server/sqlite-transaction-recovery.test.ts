// F9 in one process: a statement inside a transaction meets a full database (`PRAGMA
// max_page_count` at the file's size), and the callback catches the error and goes on. The
// transaction must fail as a whole, leave nothing behind, and leave the connection out of any
// transaction, so that once there is room again the next write is committed for another reader.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sqliteConnection } from '../../server/src/db/sqlite-connection.js';
import { UserRecord } from '../../server/src/members/user.entity.js';
import { openTestDatabase } from '../support/database.js';
import { forTheFile } from '../support/for-the-file.js';
import { buildUser } from '../support/factories.js';

const db = forTheFile(openTestDatabase);

/** How many users another connection to the file sees with names starting `prefix`. */
function countElsewhere(prefix: string): number {
  if (db.database.database.type !== 'sqlite') throw new Error('this test needs the SQLite project');
  const other = new Database(db.database.database.file, { timeout: 5000 });
  try {
    const row = other.prepare('SELECT COUNT(*) AS n FROM users WHERE first LIKE ?').get(`${prefix}%`) as { n: number };
    return row.n;
  } finally {
    other.close();
  }
}

describe('a full database inside a transaction (F9)', () => {
  it('fails the whole transaction even when its callback goes on, and leaves no transaction open', async () => {
    const [size] = await db.dataSource.query<{ page_count: number }[]>('PRAGMA page_count');
    const pages = size?.page_count ?? 0;
    await db.dataSource.query(`PRAGMA max_page_count = ${String(pages)}`);
    let full: unknown;
    const outcome = db.dataSource.transaction(async (manager) => {
      try {
        for (let i = 0; i < 500; i++) {
          await manager.insert(UserRecord, buildUser({ first: `full ${'x'.repeat(4000)}` }));
        }
      } catch (error) {
        full = error;
      }
      // Carries on as if nothing happened: this must not be committed on its own either.
      await manager.insert(UserRecord, buildUser({ first: 'full, then more' })).catch(() => undefined);
    });
    await expect(outcome).rejects.toMatchObject({ driverError: { code: 'SQLITE_FULL' } });
    expect(full).toMatchObject({ driverError: { code: 'SQLITE_FULL' } });
    expect(sqliteConnection(db.dataSource)?.inTransaction).toBe(false);
    expect(countElsewhere('full')).toBe(0);

    await db.dataSource.query('PRAGMA max_page_count = 1073741823');
    await db.dataSource.transaction(async (manager) => {
      await manager.insert(UserRecord, buildUser({ first: 'room again' }));
    });
    expect(countElsewhere('room again')).toBe(1);
    expect(countElsewhere('full')).toBe(0);
  });
});

describe('transactions begun together (one COMMIT for those that waited)', () => {
  it('commits each that succeeds, rolls back only the one that fails, and answers only once committed', async () => {
    const seen: number[] = [];
    const commit = (first: string) =>
      db.dataSource
        .transaction(async (manager) => {
          await manager.insert(UserRecord, buildUser({ first }));
        })
        .then(() => {
          seen.push(countElsewhere(first));
        });
    const failing = db.dataSource.transaction(async (manager) => {
      await manager.insert(UserRecord, buildUser({ first: 'together, failing' }));
      throw new Error('this one fails');
    });
    const carryingOn = db.dataSource.transaction(async (manager) => {
      const taken = buildUser({ first: 'together, taken' });
      await manager.insert(UserRecord, taken);
      // A failed statement that the callback catches leaves the rest of its transaction to commit.
      await manager
        .insert(UserRecord, buildUser({ uid: taken.uid, first: 'together, duplicate' }))
        .catch(() => undefined);
      await manager.insert(UserRecord, buildUser({ first: 'together, after' }));
    });
    await Promise.all([
      commit('together, first'),
      expect(failing).rejects.toThrow('this one fails'),
      carryingOn,
      commit('together, last'),
    ]);
    expect(seen).toEqual([1, 1]);
    expect(countElsewhere('together, failing')).toBe(0);
    expect(countElsewhere('together, taken')).toBe(1);
    expect(countElsewhere('together, duplicate')).toBe(0);
    expect(countElsewhere('together, after')).toBe(1);
    expect(sqliteConnection(db.dataSource)?.inTransaction).toBe(false);
  });

  it('fails every one of them when the disk is full, leaves none of them behind, and recovers', async () => {
    const [size] = await db.dataSource.query<{ page_count: number }[]>('PRAGMA page_count');
    await db.dataSource.query(`PRAGMA max_page_count = ${String(size?.page_count ?? 0)}`);
    const small = db.dataSource.transaction(async (manager) => {
      await manager.insert(UserRecord, buildUser({ first: 'grouped full, small' }));
    });
    const large = db.dataSource.transaction(async (manager) => {
      for (let i = 0; i < 500; i++) {
        await manager.insert(UserRecord, buildUser({ first: `grouped full, large ${'x'.repeat(4000)}` }));
      }
    });
    const after = db.dataSource.transaction(async (manager) => {
      await manager.insert(UserRecord, buildUser({ first: 'grouped full, after' }));
    });
    const outcomes = await Promise.allSettled([small, large, after]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(countElsewhere('grouped full')).toBe(0);
    expect(sqliteConnection(db.dataSource)?.inTransaction).toBe(false);

    await db.dataSource.query('PRAGMA max_page_count = 1073741823');
    await db.dataSource.transaction(async (manager) => {
      await manager.insert(UserRecord, buildUser({ first: 'grouped room again' }));
    });
    expect(countElsewhere('grouped room again')).toBe(1);
  });
});
