import { AsyncLocalStorage } from 'node:async_hooks';
import { Mutex } from 'async-mutex';
import type { Statement } from 'better-sqlite3';
import type { DataSource, QueryRunner } from 'typeorm';
import { changesWatchedData } from './commit-watch.js';
import { isSqliteStorageFailure } from './errors.js';
import {
  SqliteTransactionLostError,
  ensureOpen,
  leaveTransaction,
  onSqliteReopen,
  sqliteConnection,
} from './sqlite-connection.js';
import { sqliteSharedMemoryWritable } from './sqlite-guard.js';

/** Each serialised data source's write probe, run between its transactions. */
const writeProbes = new WeakMap<DataSource, () => Promise<void>>();

/** Whether each serialised data source's last write failed on its file, disk or lock. */
const writeHealth = new WeakMap<DataSource, { failing: boolean }>();

/** A ROLLBACK, of the whole transaction or to a savepoint: what a doomed transaction may still run. */
const ROLLBACK = /^\s*ROLLBACK\b/i;

/** Nothing of the app reads this lease: the readiness check's write, committed while writes were failing. */
const WRITE_CHECK = `INSERT INTO job_leases (name, next_run_at) VALUES ('readiness-write-check', ?)
  ON CONFLICT (name) DO UPDATE SET next_run_at = excluded.next_run_at`;

const NO_TABLES: ReadonlySet<string> = new Set();

/** At most this many queued transactions share one COMMIT (a bound on how long the first waits for the last). */
const MAX_GROUP = 32;

/** A transaction waiting for its turn of the connection (see `turn` in `serializeSqlite`). */
interface Waiting {
  args: unknown[];
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** Runs `work` in the async context of the transaction's caller, inside the connection's transaction. */
  run: <T>(work: () => Promise<T>) => Promise<T>;
}

/** Whether `sql` may write (anything but a read, transaction control or a setting). */
function changesData(sql: unknown): boolean {
  return typeof sql === 'string' && changesWatchedData(sql, NO_TABLES);
}

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
  const runner: QueryRunner = dataSource.driver.createQueryRunner('master');
  const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
  const health = { failing: false };
  writeHealth.set(dataSource, health);
  /** The failure that dooms the transaction running now (see `inside`), until it has ended. */
  let doomed: { error: unknown } | undefined;
  let wrote = false;
  /** Whether the transaction that just ended wrote anything (read afresh: statements set it meanwhile). */
  const didWrite = (): boolean => wrote;
  /** The doom of the transaction that just ended, forgotten for the next one. */
  const takeDoom = (): { error: unknown } | undefined => {
    const failure = doomed;
    doomed = undefined;
    return failure;
  };

  /** A statement outside any transaction: it commits by itself. */
  const alone = async (...args: unknown[]): Promise<unknown> => {
    await ensureOpen(dataSource, runner);
    try {
      const result = await query(...args);
      if (changesData(args[0])) health.failing = false;
      return result;
    } catch (error) {
      if (isSqliteStorageFailure(error)) health.failing = true;
      throw error;
    }
  };

  /**
   * A statement of the transaction running now. After a failure of the file, the disk or the lock
   * (SQLITE_FULL, SQLITE_IOERR*, SQLITE_BUSY…), or any failure after which SQLite is no longer in
   * a transaction (it rolled back by itself), the transaction is doomed: every later statement of
   * it but a rollback fails with that error, so no COMMIT or RELEASE can make part of it count and
   * no statement can run, and commit, outside it.
   */
  const inside = async (...args: unknown[]): Promise<unknown> => {
    const sql = args[0];
    if (doomed && !(typeof sql === 'string' && ROLLBACK.test(sql))) throw doomed.error;
    try {
      const result = await query(...args);
      if (changesData(sql)) wrote = true;
      return result;
    } catch (error) {
      if (!doomed && (isSqliteStorageFailure(error) || !sqliteConnection(dataSource)?.inTransaction)) {
        doomed = { error };
      }
      throw error;
    }
  };

  /**
   * Ends the outermost transaction for certain: whatever TypeORM did after a failure, the connection
   * leaves it with no transaction open (rolled back, or reopened), and a transaction that was doomed
   * or never committed fails, even when its callback caught the error and went on.
   */
  const settle = async <T>(work: () => Promise<T>): Promise<T> => {
    takeDoom();
    wrote = false;
    let outcome: { value: T } | { error: unknown };
    try {
      await ensureOpen(dataSource, runner);
      outcome = { value: await work() };
    } catch (error) {
      outcome = { error };
    }
    const failure = takeDoom();
    const stillOpen = sqliteConnection(dataSource)?.inTransaction === true;
    if (failure || stillOpen || 'error' in outcome) await leaveTransaction(dataSource, runner);
    if ('error' in outcome) {
      if (failure || isSqliteStorageFailure(outcome.error)) health.failing = true;
      throw outcome.error;
    }
    if (failure) {
      health.failing = true;
      throw failure.error;
    }
    if (stillOpen) {
      health.failing = true;
      throw new SqliteTransactionLostError();
    }
    if (didWrite()) health.failing = false;
    return outcome.value;
  };

  const transaction = manager.transaction.bind(manager) as (...args: unknown[]) => Promise<unknown>;
  const waiting: Waiting[] = [];
  /**
   * One turn of the connection: the transactions waiting for it (one, or those that queued while
   * another held it) run one after another and commit together. Alone, a transaction runs as it
   * always did; together, each is a savepoint of one transaction whose COMMIT (and its fsync) they
   * share, each in its caller's own async context. One that fails is rolled back to its savepoint
   * and fails alone; a failure of the file, the disk or the lock, or a COMMIT that fails, fails
   * every one of them: none is answered before the COMMIT that keeps it has returned.
   */
  const turn = async (): Promise<void> => {
    const group = waiting.splice(0, MAX_GROUP);
    const [first] = group;
    if (!first) return;
    if (group.length === 1) {
      await first.run(() => settle(() => transaction(...first.args))).then(first.resolve, first.reject);
      return;
    }
    const outcomes = new Map<Waiting, { value: unknown } | { error: unknown }>();
    try {
      await inTransaction.run(true, () =>
        settle(async () => {
          await runner.startTransaction();
          for (const each of group) {
            try {
              if (doomed) throw doomed.error;
              outcomes.set(each, { value: await each.run(() => transaction(...each.args)) });
            } catch (error) {
              outcomes.set(each, { error });
            }
          }
          await runner.commitTransaction();
        }),
      );
    } catch (error) {
      for (const each of group)
        if (!outcomes.has(each) || 'value' in (outcomes.get(each) ?? {})) outcomes.set(each, { error });
    }
    for (const each of group) {
      const outcome = outcomes.get(each);
      if (outcome && 'value' in outcome) each.resolve(outcome.value);
      else each.reject(outcome?.error);
    }
  };
  const owned = (...args: unknown[]): Promise<unknown> => {
    if (inTransaction.getStore()) return transaction(...args);
    // A transaction that names an isolation level keeps a turn of its own (it is never a savepoint).
    if (typeof args[0] !== 'function') {
      return mutex.runExclusive(() => inTransaction.run(true, () => settle(() => transaction(...args))));
    }
    const caller = AsyncLocalStorage.snapshot();
    return new Promise<unknown>((resolve, reject) => {
      waiting.push({ args, resolve, reject, run: (work) => caller(() => inTransaction.run(true, work)) });
      // Each transaction takes a turn; a turn finding it already run in an earlier group does nothing.
      // The turn is asked for from the next turn of the event loop, so that the transactions begun in
      // this one (sign-ins whose hashes ended while the last COMMIT held the loop) wait together.
      setImmediate(() => {
        mutex.runExclusive(turn).catch(reject);
      });
    });
  };
  (manager as { transaction: unknown }).transaction = owned;

  (runner as { query: QueryRunner['query'] }).query = ((...args: unknown[]) =>
    inTransaction.getStore() ? inside(...args) : mutex.runExclusive(() => alone(...args))) as QueryRunner['query'];

  const statements = new Map<string, Statement>();
  onSqliteReopen(dataSource, () => {
    statements.clear();
  });
  const readAtOnce = (sql: string, parameters: readonly unknown[]): Record<string, unknown>[] | undefined => {
    // The queued path answers an unwritable WAL index with a coded error; here it would be a SIGBUS.
    if (!sqliteSharedMemoryWritable(dataSource)) return undefined;
    try {
      // A kept statement runs without asking whether its connection is open (~1% of a profile read,
      // better-sqlite3's getter): on a closed one it throws, and the statements are prepared again.
      let statement = statements.get(sql);
      if (!statement) {
        const connection = sqliteConnection(dataSource);
        if (!connection) return undefined;
        if (statements.size >= MAX_STATEMENTS) statements.clear();
        statement = connection.prepare(sql);
        statements.set(sql, statement);
      }
      if (dataSource.options.logging) dataSource.logger.logQuery(sql, [...parameters]);
      return statement.all(...parameters) as Record<string, unknown>[];
    } catch {
      statements.clear();
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

  // Both statements under the lock, so no other statement can land inside this transaction. While
  // the last write failed, taking the lock proves little (a full disk still grants it): a small
  // write is committed instead, and readiness returns once one is kept.
  writeProbes.set(dataSource, () =>
    mutex.runExclusive(async () => {
      await ensureOpen(dataSource, runner);
      if (!health.failing) {
        await query('BEGIN IMMEDIATE');
        await query('ROLLBACK').catch(async (error: unknown) => {
          await leaveTransaction(dataSource, runner);
          throw error;
        });
        return;
      }
      try {
        await query(WRITE_CHECK, [Date.now()]);
        health.failing = false;
      } catch (error) {
        await leaveTransaction(dataSource, runner);
        throw error;
      }
    }),
  );
}
