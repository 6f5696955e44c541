// Global setup of the server and e2e projects: one migrated template database per run, which
// every test file copies (SQLite) or clones (PostgreSQL), so that each file starts from a fresh,
// fully migrated database without paying for the migrations again.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDataSource } from '../../server/src/app/data-source.js';
import { openDatabase } from '../../server/src/db/data-source.js';
import { postgresAdminUrl } from './postgres.js';

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { dialect } = project.getProvidedContext();
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'lampstand-test-'));
    const file = path.join(dir, 'template.sqlite');
    const dataSource = await openDatabase(createDataSource({ type: 'sqlite', file }));
    await dataSource.query('PRAGMA wal_checkpoint(TRUNCATE)');
    await dataSource.destroy();
    project.provide('sqliteTemplate', file);
    return () => {
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    };
  }

  const adminUrl = postgresAdminUrl();
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `The server:postgres tests need PostgreSQL at ${adminUrl} (set TEST_POSTGRES_URL to change it): ${String(error)}`,
      { cause: error },
    );
  }
  const template = `lampstand_t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${template}`);
  const url = new URL(adminUrl);
  url.pathname = `/${template}`;
  const dataSource = await openDatabase(createDataSource({ type: 'postgres', url: url.toString() }));
  await dataSource.destroy();
  project.provide('postgresAdminUrl', adminUrl);
  project.provide('postgresTemplate', template);

  return async () => {
    const { rows } = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2',
      [template, `${template}\\_%`],
    );
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await admin.end();
  };
}
