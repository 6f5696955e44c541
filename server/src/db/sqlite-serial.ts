import { AsyncLocalStorage } from 'node:async_hooks';
import { Mutex } from 'async-mutex';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

/** Each serialised data source's write probe, run between its transactions. */
const writeProbes = new WeakMap<DataSource, () => Promise<void>>();

/**
 * For a serialised SQLite data source, a check that its file can be written right now: it takes
 * the write lock and lets it go (`BEGIN IMMEDIATE; ROLLBACK`), failing after the busy timeout when
 * another process holds it. Undefined for other data sources.
 */
export function sqliteWriteProbe(dataSource: DataSource): (() => Promise<void>) | undefined {
  return writeProbes.get(dataSource);
}

/**
 * TypeORM runs everything on SQLite through one connection and one query runner. Two transactions
 * in flight at once would nest as savepoints of each other, so one's rollback could undo the
 * other's "committed" work, and a query from another request could land inside a transaction that
 * later rolls back. This makes a transaction own the connection while it runs: other transactions
 * and statements wait, while everything its own callback does (tracked with AsyncLocalStorage)
 * goes straight through, nested transactions included.
 */
export function serializeSqlite(dataSource: DataSource): void {
  const mutex = new Mutex();
  const inTransaction = new AsyncLocalStorage<true>();
  const { manager } = dataSource;
  const transaction = manager.transaction.bind(manager) as (...args: unknown[]) => Promise<unknown>;
  const owned: EntityManager['transaction'] = (...args: unknown[]) =>
    inTransaction.getStore()
      ? transaction(...args)
      : mutex.runExclusive(() => inTransaction.run(true, () => transaction(...args)));
  (manager as { transaction: EntityManager['transaction'] }).transaction = owned;

  const runner: QueryRunner = dataSource.driver.createQueryRunner('master');
  const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
  (runner as { query: QueryRunner['query'] }).query = ((...args: unknown[]) =>
    inTransaction.getStore() ? query(...args) : mutex.runExclusive(() => query(...args))) as QueryRunner['query'];

  // Both statements under the lock, so no other statement can land inside this transaction.
  writeProbes.set(dataSource, () =>
    mutex.runExclusive(async () => {
      await query('BEGIN IMMEDIATE');
      await query('ROLLBACK');
    }),
  );
}
