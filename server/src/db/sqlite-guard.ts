import { accessSync, constants } from 'node:fs';
import type { DataSource, QueryRunner } from 'typeorm';

/** The error a statement meets when the WAL index cannot be written: SQLite's own read-only code. */
export class SqliteReadOnlyError extends Error {
  readonly code = 'SQLITE_READONLY_SHM';

  constructor(readonly file: string) {
    super('the SQLite shared-memory file (-shm) cannot be written');
  }
}

/** Each guarded data source's check, for `/readyz` and the start-up check. */
const checks = new WeakMap<DataSource, () => void>();

/** Each guarded data source's `-shm` file. */
const sharedMemoryFiles = new WeakMap<DataSource, string>();

/**
 * False when `dataSource` is guarded and its WAL index cannot be written: a statement run
 * outside the guarded query runner (sqlite-serial.ts's direct reads) must not run then, as a
 * read writes the index too.
 */
export function sqliteSharedMemoryWritable(dataSource: DataSource): boolean {
  const shm = sharedMemoryFiles.get(dataSource);
  return shm === undefined || writable(shm);
}

/** For a guarded SQLite data source, a check that throws SqliteReadOnlyError when its files cannot be written. */
export function sqliteWritableCheck(dataSource: DataSource): (() => void) | undefined {
  return checks.get(dataSource);
}

/**
 * Files found writable during this turn of the event loop. A check is a system call, and a signed-in
 * read runs three statements: the verdict is reused until the loop turns (`setImmediate`), a
 * window of the same kind as the one between any check and the statement after it.
 */
const writableThisTurn = new Set<string>();
let forgetting = false;

/** True unless `path` exists and cannot be written (immutable, read-only file system, no permission). */
function writable(path: string): boolean {
  if (writableThisTurn.has(path)) return true;
  let verdict: boolean;
  try {
    accessSync(path, constants.W_OK);
    verdict = true;
  } catch (error) {
    verdict = (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
  if (verdict) {
    writableThisTurn.add(path);
    if (!forgetting) {
      forgetting = true;
      setImmediate(() => {
        writableThisTurn.clear();
        forgetting = false;
      });
    }
  }
  return verdict;
}

/**
 * Keeps SQLite from killing the process with SIGBUS. In WAL mode SQLite writes the WAL index
 * through a shared memory map of the `-shm` file, reads included; when that file cannot be
 * written (made immutable, its file system remounted read-only) the write into the map is a
 * SIGBUS that ends the process with no log line. Before every statement this checks that the
 * file is writable (an `access` call, at most one per turn of the event loop) and fails the statement with SQLITE_READONLY_SHM instead,
 * which callers answer as the database being unavailable. Writes to the database and WAL files go
 * through `write()` and already fail with coded errors.
 */
export function guardSqliteSharedMemory(dataSource: DataSource, file: string): void {
  const shm = `${file}-shm`;
  const check = (): void => {
    if (!writable(shm)) throw new SqliteReadOnlyError(shm);
    if (!writable(file) || !writable(`${file}-wal`)) throw new SqliteReadOnlyError(file);
  };
  checks.set(dataSource, check);
  sharedMemoryFiles.set(dataSource, shm);
  const runner: QueryRunner = dataSource.driver.createQueryRunner('master');
  const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
  (runner as { query: QueryRunner['query'] }).query = ((...args: unknown[]) => {
    if (!writable(shm)) return Promise.reject(new SqliteReadOnlyError(shm));
    return query(...args);
  }) as QueryRunner['query'];
}
