import { QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
}

/** The driver's error behind a TypeORM one, or the error itself. */
function driverCause(error: unknown): unknown {
  return error instanceof QueryFailedError ? error.driverError : error;
}

/** True when a write failed on a unique index or primary key (PostgreSQL 23505, SQLite CONSTRAINT_UNIQUE/PRIMARYKEY). */
export function isUniqueViolation(error: unknown): boolean {
  const code = errorCode(driverCause(error));
  return (
    error instanceof QueryFailedError &&
    (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
  );
}

/** Node's network error codes for a database that cannot be reached at all. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND']);

/** node-postgres's own errors (no code) for a connection that broke or could not be made in time. */
const PG_CONNECTION_LOST = /^(Connection terminated|timeout exceeded when trying to connect)/;

/**
 * SQLite's codes for a file, a disk or a lock that failed, not the statement: busy, locked, I/O,
 * read-only, full, cannot-open and lock-protocol errors, with their extended codes (such as
 * SQLITE_BUSY_SNAPSHOT or SQLITE_IOERR_SHMSIZE). After one of these inside a transaction, SQLite may
 * or may not have rolled the transaction back by itself.
 */
const SQLITE_STORAGE = /^SQLITE_(BUSY|LOCKED|IOERR|READONLY|FULL|CANTOPEN|PROTOCOL)/;

/** True when a SQLite statement failed because of its files, its disk or its lock (see SQLITE_STORAGE). */
export function isSqliteStorageFailure(error: unknown): boolean {
  const code = errorCode(driverCause(error));
  return typeof code === 'string' && SQLITE_STORAGE.test(code);
}

/**
 * True when the database, not the request, is at fault: PostgreSQL's connection, resource and
 * operator classes (08, 53, 57, 55000 "not accepting connections"), SQLite's storage failures
 * (see SQLITE_STORAGE), a server that cannot be reached, and a connection lost mid-transaction.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  // What a query meets after its connection died in the middle of a transaction.
  if (error instanceof QueryRunnerAlreadyReleasedError) return true;
  const cause = driverCause(error);
  if (cause instanceof Error && PG_CONNECTION_LOST.test(cause.message)) return true;
  const code = errorCode(cause);
  if (typeof code !== 'string') return false;
  return /^(08|53|57)/.test(code) || code === '55000' || SQLITE_STORAGE.test(code) || UNREACHABLE_CODES.has(code);
}

/** File-system error codes for a disk that is full, read-only, broken or not ours to write. */
const STORAGE_ERRNO = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EROFS', 'EACCES', 'EPERM', 'EIO', 'ENOTDIR', 'EISDIR']);

/**
 * One plain sentence naming why the database or its folder failed, for a start that cannot go on
 * (a full or broken disk, a file that is not a database, a server that cannot be reached), or
 * undefined when `error` is not such a failure.
 */
export function storageFailureCause(error: unknown, sqliteFile?: string): string | undefined {
  const cause = driverCause(error);
  const code = errorCode(cause);
  if (typeof code !== 'string') return undefined;
  const message = cause instanceof Error ? cause.message : String(cause);
  if (code.startsWith('SQLITE_')) {
    const name = sqliteFile === undefined ? 'the SQLite database' : `the SQLite database ${sqliteFile}`;
    return `${name} failed with ${code} (${message}): its disk may be full, read-only or broken`;
  }
  if (STORAGE_ERRNO.has(code)) return `the data folder failed with ${code} (${message})`;
  if (isDatabaseUnavailable(error)) return `the database cannot be reached (${code}: ${message})`;
  return undefined;
}
