import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { watchCommits } from '../../server/src/db/commit-watch.js';
import { buildDataSource } from '../../server/src/db/data-source.js';

// A real SQLite data source, serialised as the app's is: one connection, transactions take turns.
let dataSource: DataSource;
let changes: number;
beforeEach(async () => {
  dataSource = buildDataSource({ type: 'sqlite', file: ':memory:' }, { entities: [] });
  await dataSource.initialize();
  await dataSource.query('CREATE TABLE pages (name TEXT)');
  await dataSource.query('CREATE TABLE visits (n INTEGER)');
  changes = 0;
  watchCommits(dataSource, {
    ignoredTables: new Set(['visits']),
    onChange: () => {
      changes++;
    },
  });
});
afterEach(async () => {
  await dataSource.destroy();
});

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('the commit watch', () => {
  it('reports writes and leaves reads and ignored tables alone', async () => {
    await dataSource.query('SELECT * FROM pages');
    await dataSource.query('INSERT INTO visits (n) VALUES (1)');
    expect(changes).toBe(0);
    await dataSource.query("INSERT INTO pages (name) VALUES ('a')");
    expect(changes).toBe(1);
  });

  it('reports a transaction that wrote again when it commits, and when it rolls back', async () => {
    await dataSource.transaction(async (manager) => {
      await manager.query("INSERT INTO pages (name) VALUES ('b')");
    });
    const committed = changes;
    expect(committed).toBeGreaterThanOrEqual(2);
    await dataSource
      .transaction(async (manager) => {
        await manager.query("UPDATE pages SET name = 'c'");
        throw new Error('changed its mind');
      })
      .catch(() => undefined);
    expect(changes).toBeGreaterThanOrEqual(committed + 2);
  });

  it('reports a write outside a transaction though a transaction takes the connection the moment it ends', async () => {
    const first = gate();
    const second = gate();
    // A transaction holds the connection; a plain write and another transaction queue behind it.
    const holding = dataSource.transaction(async (manager) => {
      await manager.query('SELECT 1');
      await first.opened;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const write = dataSource.query("INSERT INTO pages (name) VALUES ('d')");
    const next = dataSource
      .transaction(async (manager) => {
        await manager.query('SELECT 1');
        await second.opened;
        throw new Error('rolled back, having written nothing');
      })
      .catch(() => undefined);
    first.open();
    await write;
    // Reported when the write returns, while the next transaction still holds the connection.
    expect(changes).toBe(1);
    second.open();
    await Promise.all([holding, next]);
    expect(changes).toBeGreaterThanOrEqual(1);
  });
});
