import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { DataSource } from 'typeorm';
import type { DataSourceOptions, EntitySchema, Logger, MixedList } from 'typeorm';
import type { Config } from '../config.js';
import { postgresMigrations, sqliteMigrations } from './migrations/index.js';
import { guardSqliteSharedMemory } from './sqlite-guard.js';
import { bindSqliteWholeNumbers } from './sqlite-parameters.js';
import { serializeSqlite } from './sqlite-serial.js';

export type EntityList = MixedList<string | (new () => unknown) | EntitySchema>;

/** How long one statement may wait for a SQLite write lock while nothing is served yet (migrations, tools). */
const BUSY_TIMEOUT_MS = 5000;
/**
 * The same wait once requests are served. Our own writes are serialised in-process and never meet
 * the lock, so only another process (a tool, the sqlite3 shell, a backup's checkpoint) can hold it:
 * its brief writes are waited out, a long hold fails each write fast. better-sqlite3 waits
 * synchronously, freezing the process meanwhile, and queued writes wait one after another: at
 * 250 ms, 20 writes queued together still all answer within 5 s (F1).
 */
const REQUEST_BUSY_TIMEOUT_MS = 250;
/** The size SQLite cuts the WAL file back to after a checkpoint. */
const WAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;
/**
 * How long a query may wait for a PostgreSQL connection (a free one in the pool, or a new one made):
 * well under 5 s, so that with the database unreachable a request still fails within 5 s (F1).
 */
const CONNECT_TIMEOUT_MS = 3000;

/**
 * Builds the TypeORM data source for the configured database (not yet initialized), for the
 * entities given: the app's list is kept by the composition root (app/entities.ts).
 */
export function buildDataSource(
  database: Config['database'],
  extra: { entities: EntityList; logger?: Logger },
): DataSource {
  const common = {
    entities: extra.entities,
    synchronize: false,
    migrationsRun: false,
    // Query errors reach our code as exceptions and are logged there, with the request.
    logging: extra.logger ? 'all' : false,
    ...(extra.logger ? { logger: extra.logger } : {}),
  } satisfies Partial<DataSourceOptions>;

  if (database.type === 'postgres') {
    return new DataSource({
      ...common,
      type: 'postgres',
      url: database.url,
      migrations: postgresMigrations,
      migrationsTransactionMode: 'each',
      extra: {
        max: 10,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        statement_timeout: 10_000,
        application_name: 'lampstand',
      },
    });
  }

  if (database.file !== ':memory:') mkdirSync(path.dirname(database.file), { recursive: true });
  const dataSource = new DataSource({
    ...common,
    type: 'better-sqlite3',
    database: database.file,
    migrations: sqliteMigrations,
    migrationsTransactionMode: 'each',
    enableWAL: true,
    timeout: BUSY_TIMEOUT_MS,
    prepareDatabase: (db: Database) => {
      // No memory-mapped reads of the database file: a failed page-in would be a SIGBUS, not an error.
      db.pragma('mmap_size = 0');
      db.pragma('foreign_keys = ON');
      // Durable on power loss: every COMMIT waits until the WAL is on the disk (NORMAL would keep
      // the WAL in the page cache until a checkpoint, and lose the last commits with the power).
      db.pragma('synchronous = FULL');
      // A checkpoint every 1000 pages (SQLite's default, said here so it is a decision), and a WAL
      // that grew past 16 MiB (a checkpoint held back, a disk that was full) is cut back after one.
      db.pragma('wal_autocheckpoint = 1000');
      db.pragma(`journal_size_limit = ${String(WAL_SIZE_LIMIT_BYTES)}`);
    },
  });
  bindSqliteWholeNumbers(dataSource);
  serializeSqlite(dataSource);
  if (database.file !== ':memory:') guardSqliteSharedMemory(dataSource, database.file);
  return dataSource;
}

/** PostgreSQL advisory lock key held while migrating: instances starting together migrate one at a time. */
const MIGRATION_LOCK_KEY = 7_311_001;

/**
 * Opens the data source and brings its schema up to date. On PostgreSQL the migrations run under
 * an advisory lock, so replicas starting together on a fresh database migrate once: the others
 * wait, then find nothing left to run. (SQLite serves one instance; its migrations need no lock.)
 */
export async function openDatabase(dataSource: DataSource): Promise<DataSource> {
  await dataSource.initialize();
  if (dataSource.options.type !== 'postgres') {
    await dataSource.runMigrations({ transaction: 'each' });
    return dataSource;
  }
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    // The pool's statement timeout must not cut the wait short while another instance migrates.
    await lock.query('SET statement_timeout = 0');
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    // Back to the pool's own timeout before the connection serves requests.
    await lock.query('RESET statement_timeout').catch(() => undefined);
    await lock.release();
  }
  return dataSource;
}

/**
 * Shortens SQLite's wait for another process's write lock to what serving requests can afford
 * (see REQUEST_BUSY_TIMEOUT_MS); PostgreSQL has its own timeouts.
 */
export async function useRequestBusyTimeout(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'better-sqlite3') return;
  await dataSource.query(`PRAGMA busy_timeout = ${String(REQUEST_BUSY_TIMEOUT_MS)}`);
}
