import type { Database } from 'better-sqlite3';
import type { DataSource, QueryRunner } from 'typeorm';

/** The parts of TypeORM's better-sqlite3 driver and query runner that recovery needs to reach. */
interface SqliteDriverInternals {
  databaseConnection?: Database;
  createDatabaseConnection(): Promise<Database>;
}
interface SqliteRunnerInternals {
  isTransactionActive: boolean;
  transactionDepth: number;
  stmtCache?: Map<string, unknown>;
}

/** The data source's one better-sqlite3 connection, when it is open. */
export function sqliteConnection(dataSource: DataSource): Database | undefined {
  const connection = (dataSource.driver as unknown as SqliteDriverInternals).databaseConnection;
  return connection?.open ? connection : undefined;
}

/** The error a statement meets while the connection could not be opened again after a failure. */
export class SqliteConnectionLostError extends Error {
  readonly code = 'SQLITE_CANTOPEN_RECOVERY';

  constructor(cause: unknown) {
    super('the SQLite connection could not be opened again', { cause });
  }
}

/** The error of a transaction that SQLite ended, or never committed, without saying so in its own answer. */
export class SqliteTransactionLostError extends Error {
  readonly code = 'SQLITE_IOERR_TRANSACTION_LOST';

  constructor() {
    super('the SQLite transaction was not committed');
  }
}

/**
 * Brings the connection back out of any transaction after one failed: TypeORM's query runner is told
 * no transaction is open (after a failed COMMIT it still believes one is, and its next transaction
 * would become a savepoint inside nothing, whose ROLLBACK TO leaves a transaction open for good); a
 * transaction SQLite kept open is rolled back; and when even that fails, the connection is closed
 * (which rolls back) and opened again with the same settings. Answers false when the connection
 * could not be opened again (the next statement tries again, see `reopen`).
 */
export async function leaveTransaction(dataSource: DataSource, runner: QueryRunner): Promise<boolean> {
  const state = runner as unknown as SqliteRunnerInternals;
  state.isTransactionActive = false;
  state.transactionDepth = 0;
  const connection = sqliteConnection(dataSource);
  if (!connection) return reopen(dataSource, runner);
  if (!connection.inTransaction) return true;
  try {
    connection.exec('ROLLBACK');
  } catch {
    // Checked below: a rollback that failed is followed by closing the connection.
  }
  return inTransaction(connection) ? reopen(dataSource, runner) : true;
}

/** Whether SQLite has a transaction open on `connection` now (read afresh after a statement). */
function inTransaction(connection: Database): boolean {
  return connection.inTransaction;
}

/** Whether the data source's connection is open; when it is not, tries to open it again. */
export async function ensureOpen(dataSource: DataSource, runner: QueryRunner): Promise<void> {
  if (sqliteConnection(dataSource)) return;
  if (!(await reopen(dataSource, runner))) throw new SqliteConnectionLostError(lastReopenError.get(dataSource));
}

const busyTimeouts = new WeakMap<DataSource, number>();
const lastReopenError = new WeakMap<DataSource, unknown>();
const reopenListeners = new WeakMap<DataSource, () => void>();

/** Called after the connection was opened again: statements prepared on the old one must be forgotten. */
export function onSqliteReopen(dataSource: DataSource, listener: () => void): void {
  reopenListeners.set(dataSource, listener);
}

/**
 * Closes the connection (SQLite rolls back what it left open) and opens a new one through TypeORM's
 * driver, so it gets the same pragmas (`prepareDatabase`, WAL, foreign keys) and the busy timeout in
 * use. False when it cannot be opened (a full or broken disk): the error is kept for the next try.
 */
async function reopen(dataSource: DataSource, runner: QueryRunner): Promise<boolean> {
  const driver = dataSource.driver as unknown as SqliteDriverInternals;
  const old = driver.databaseConnection;
  if (old?.open) {
    try {
      busyTimeouts.set(dataSource, old.pragma('busy_timeout', { simple: true }) as number);
    } catch {
      // The timeout last read is used instead.
    }
    try {
      old.close();
    } catch {
      // A connection that cannot even close is dropped; SQLite rolls back what it held when the process ends.
    }
  }
  (runner as unknown as SqliteRunnerInternals).stmtCache?.clear();
  reopenListeners.get(dataSource)?.();
  try {
    const connection = await driver.createDatabaseConnection();
    const busy = busyTimeouts.get(dataSource);
    if (busy !== undefined) connection.pragma(`busy_timeout = ${String(busy)}`);
    driver.databaseConnection = connection;
    return true;
  } catch (error) {
    lastReopenError.set(dataSource, error);
    return false;
  }
}
