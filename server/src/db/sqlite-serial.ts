import { AsyncLocalStorage } from 'node:async_hooks';
import { Mutex } from 'async-mutex';
import type { Database, Statement } from 'better-sqlite3';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { sqliteSharedMemoryWritable } from './sqlite-guard.js';

/** Each serialised data source's write probe, run between its transactions. */
const writeProbes = new WeakMap<DataSource, () => Promise<void>>();

/** Runs a read at once, or answers undefined when it must take its turn (see `sqliteReadNow`). */
export type ReadNow = (sql: string, parameters: readonly unknown[]) => Record<string, unknown>[] | undefined;

const readers = new WeakMap<DataSource, ReadNow>();
const transactionReaders = new WeakMap<DataSource, ReadNow>();

/** Prepared statements kept per data source by the synchronous reader; the hot lookups are a few texts. */
const MAX_STATEMENTS = 64;

/**
 * For a serialised SQLite data source, a reader that runs a SELECT synchronously on the connection
 * when nothing holds it (no transaction open, no statement queued): the committed state, with no
 * trip through the queue and TypeORM's query runner. Undefined for other data sources; the reader
 * itself answers undefined when the query must wait its turn or fails (the queued path then runs it
 * and reports the error as usual).
 */
export function sqliteReadNow(dataSource: DataSource): ReadNow | undefined {
  return readers.get(dataSource);
}

/**
 * For a serialised SQLite data source, a reader that runs a SELECT synchronously inside the
 * transaction the caller's own callback is running (it owns the connection until it ends, so the
 * read sees its writes, as the query runner's would), without TypeORM's query runner. Undefined for
 * other data sources; the reader answers undefined outside such a transaction or when the query
 * fails (the caller then runs it through the transaction's manager, which reports the error).
 */
export function sqliteReadInTransaction(dataSource: DataSource): ReadNow | undefined {
  return transactionReaders.get(dataSource);
}

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

  const statements = new Map<string, Statement>();
  const readAtOnce = (sql: string, parameters: readonly unknown[]): Record<string, unknown>[] | undefined => {
    // The queued path answers an unwritable WAL index with a coded error; here it would be a SIGBUS.
    if (!sqliteSharedMemoryWritable(dataSource)) return undefined;
    const connection = (dataSource.driver as unknown as { databaseConnection?: Database }).databaseConnection;
    if (!connection?.open) return undefined;
    try {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= MAX_STATEMENTS) statements.clear();
        statement = connection.prepare(sql);
        statements.set(sql, statement);
      }
      if (dataSource.options.logging) dataSource.logger.logQuery(sql, [...parameters]);
      return statement.all(...parameters) as Record<string, unknown>[];
    } catch {
      return undefined;
    }
  };
  readers.set(dataSource, (sql, parameters) => {
    // A transaction opened on the runner without the lock (a repository's own save) counts too:
    // what a read saw in it might never be committed.
    if (mutex.isLocked() || inTransaction.getStore() || runner.isTransactionActive) return undefined;
    return readAtOnce(sql, parameters);
  });
  transactionReaders.set(dataSource, (sql, parameters) =>
    inTransaction.getStore() && runner.isTransactionActive ? readAtOnce(sql, parameters) : undefined,
  );

  // Both statements under the lock, so no other statement can land inside this transaction.
  writeProbes.set(dataSource, () =>
    mutex.runExclusive(async () => {
      await query('BEGIN IMMEDIATE');
      await query('ROLLBACK');
    }),
  );
}
