import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { DataSource } from 'typeorm';
import type { DataSourceOptions, EntitySchema, Logger, MixedList } from 'typeorm';
import type { Config } from '../config.js';
import { entities } from './entities.js';
import { postgresMigrations, sqliteMigrations } from './migrations/index.js';
import { serializeSqlite } from './sqlite-serial.js';

type EntityList = MixedList<string | (new () => unknown) | EntitySchema>;

/** How long one statement may wait for a SQLite write lock, and for a PostgreSQL connection. */
const BUSY_TIMEOUT_MS = 5000;

/** Builds the TypeORM data source for the configured database (not yet initialized). */
export function createDataSource(
  database: Config['database'],
  extra: { entities?: EntityList; logger?: Logger } = {},
): DataSource {
  const common = {
    entities: extra.entities ?? entities,
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
        connectionTimeoutMillis: BUSY_TIMEOUT_MS,
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
      db.pragma('foreign_keys = ON');
      db.pragma('synchronous = NORMAL');
    },
  });
  serializeSqlite(dataSource);
  return dataSource;
}

/** Opens the data source and brings its schema up to date. */
export async function openDatabase(dataSource: DataSource): Promise<DataSource> {
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  return dataSource;
}
