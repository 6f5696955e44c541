import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, inject, it } from 'vitest';
import { UserRecord } from '../../server/src/members/user.entity.js';
import { openTestDatabase } from '../support/database.js';
import { forTheFile } from '../support/for-the-file.js';
import { buildUser } from '../support/factories.js';

const db = forTheFile(openTestDatabase);

const exists = (record: UserRecord) => db.dataSource.getRepository(UserRecord).existsBy({ uid: record.uid });

describe('concurrent transactions', () => {
  it("keep one transaction's rollback from undoing another's commit", async () => {
    const kept = buildUser();
    const undone = buildUser();
    const committing = db.dataSource.transaction(async (manager) => {
      await manager.insert(UserRecord, kept);
      await sleep(30);
    });
    const failing = db.dataSource.transaction(async (manager) => {
      await manager.insert(UserRecord, undone);
      await sleep(10);
      throw new Error('this transaction fails');
    });
    await expect(failing).rejects.toThrow('this transaction fails');
    await committing;
    expect(await exists(kept)).toBe(true);
    expect(await exists(undone)).toBe(false);
  });

  it('keep a write made outside a transaction when that transaction rolls back', async () => {
    const rolledBack = buildUser();
    const outside = buildUser();
    const failing = db.dataSource.transaction(async (manager) => {
      await manager.insert(UserRecord, rolledBack);
      await sleep(30);
      throw new Error('rolled back');
    });
    await sleep(5);
    await db.dataSource.getRepository(UserRecord).insert(outside);
    await expect(failing).rejects.toThrow('rolled back');
    expect(await exists(outside)).toBe(true);
    expect(await exists(rolledBack)).toBe(false);
  });

  it('let a transaction use repositories and nested transactions inside it', async () => {
    const first = buildUser();
    const second = buildUser();
    await db.dataSource.transaction(async (manager) => {
      await manager.insert(UserRecord, first);
      // A plain repository call from inside the callback must not wait for the transaction itself.
      // On SQLite it runs on the transaction's own connection and sees its write; a PostgreSQL
      // pool gives it another connection, where the uncommitted row is not visible yet.
      expect(await exists(first)).toBe(inject('dialect') === 'sqlite');
      await manager.transaction(async (inner) => {
        await inner.insert(UserRecord, second);
      });
    });
    expect(await exists(first)).toBe(true);
    expect(await exists(second)).toBe(true);
  });
});
