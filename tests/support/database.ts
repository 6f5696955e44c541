import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { inject } from 'vitest';
import { createDataSource } from '../../server/src/app/data-source.js';
import type { Config } from '../../server/src/config.js';
import { openDatabase } from '../../server/src/db/data-source.js';
import './provided.js';

export interface TestDatabase {
  database: Config['database'];
  /** Environment variables that point the server at this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** A fresh, migrated database of the project's dialect, for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (inject('dialect') === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'lampstand-db-'));
    const file = path.join(dir, 'test.sqlite');
    copyFileSync(inject('sqliteTemplate'), file);
    return {
      database: { type: 'sqlite', file },
      env: { SQLITE_FILE: file },
      drop: () => {
        rmSync(dir, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  }

  const adminUrl = inject('postgresAdminUrl');
  const template = inject('postgresTemplate');
  const name = `${template}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    database: { type: 'postgres', url: url.toString() },
    env: { DATABASE_URL: url.toString() },
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A fresh database (`createTestDatabase`) opened through the server's own data source, for `forTheFile`. */
export async function openTestDatabase(): Promise<{
  database: TestDatabase;
  dataSource: DataSource;
  close(): Promise<void>;
}> {
  const database = await createTestDatabase();
  const dataSource = await openDatabase(createDataSource(database.database));
  return {
    database,
    dataSource,
    close: async () => {
      await dataSource.destroy();
      await database.drop();
    },
  };
}
