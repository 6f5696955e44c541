import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config.js';
import type { EntityList } from './data-source.js';
import { buildDataSource, openDatabase } from './data-source.js';

export type Dialect = Config['database']['type'];

export interface SchemaDiff {
  up: string[];
  down: string[];
}

/**
 * Migrates a fresh, throwaway database of the dialect and returns the SQL that would bring it to
 * the entities (empty when the migrations are complete). Used to generate migrations and to fail
 * CI when an entity changed without one.
 */
export async function diffSchema(
  dialect: Dialect,
  postgresAdminUrl: string,
  entities: EntityList,
): Promise<SchemaDiff> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'lampstand-schema-'));
    try {
      return await diffDatabase({ type: 'sqlite', file: path.join(dir, 'schema.sqlite') }, entities);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const name = `lampstand_schema_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(postgresAdminUrl);
    url.pathname = `/${name}`;
    return await diffDatabase({ type: 'postgres', url: url.toString() }, entities);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

async function diffDatabase(database: Config['database'], entities: EntityList): Promise<SchemaDiff> {
  const dataSource = await openDatabase(buildDataSource(database, { entities }));
  try {
    const sql = await dataSource.driver.createSchemaBuilder().log();
    return {
      up: sql.upQueries.map((query) => query.query),
      down: sql.downQueries.map((query) => query.query).reverse(),
    };
  } finally {
    await dataSource.destroy();
  }
}
