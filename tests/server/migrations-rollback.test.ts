import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataSource } from '../../server/src/app/data-source.js';
import { postgresMigrations, sqliteMigrations } from '../../server/src/db/migrations/index.js';
import type { TestApp } from '../support/app.js';
import { runCli } from '../support/cli.js';
import type { TestDatabase } from '../support/database.js';
import { createTestDatabase } from '../support/database.js';

/** The tables of the database, the migrations' own bookkeeping table left out. */
async function tables(dataSource: DataSource): Promise<string[]> {
  const rows =
    dataSource.options.type === 'postgres'
      ? await dataSource.query<{ name: string }[]>(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'",
        )
      : await dataSource.query<{ name: string }[]>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        );
  return rows
    .map((row) => row.name)
    .filter((name) => name !== 'migrations')
    .sort();
}

/** The schema the entities need but the database lacks (empty when the migrations made all of it). */
async function missingSchema(dataSource: DataSource): Promise<string[]> {
  const sql = await dataSource.driver.createSchemaBuilder().log();
  return sql.upQueries.map((query) => query.query);
}

// A release is rolled back by running its migrations' `down`s (README, Upgrades): each must undo
// exactly what its `up` did, or the older release starts on a schema it does not know.
// Forty migrations each way, and three command-line processes that compile the sources with tsx.
describe('migrations', { timeout: 240_000 }, () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createDataSource(database.database);
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('go down to an empty database one at a time, then up again to the same schema', async () => {
    const all = dataSource.options.type === 'postgres' ? postgresMigrations : sqliteMigrations;
    const before = await tables(dataSource);
    expect(before.length).toBeGreaterThan(10);
    expect(await missingSchema(dataSource)).toEqual([]);

    for (let left = all.length; left > 0; left--) {
      await dataSource.undoLastMigration({ transaction: 'each' });
      const applied = await dataSource.query<unknown[]>('SELECT name FROM migrations');
      expect(applied).toHaveLength(left - 1);
    }
    expect(await tables(dataSource)).toEqual([]);

    const ran = await dataSource.runMigrations({ transaction: 'each' });
    expect(ran).toHaveLength(all.length);
    expect(await tables(dataSource)).toEqual(before);
    expect(await missingSchema(dataSource)).toEqual([]);
  });

  it('are rolled back from the command line by `migrate.js --down N`, newest first, and brought forward again', async () => {
    const all = dataSource.options.type === 'postgres' ? postgresMigrations : sqliteMigrations;
    const target = { config: { database: database.database, dataDir: '', publicUrl: 'http://localhost:3000' } };
    const migrate = (...args: string[]) => runCli(target as unknown as TestApp, 'migrate', args);
    const down = await migrate('--down', '2');
    expect(down.code, down.stderr).toBe(0);
    const newest = all.slice(-2).map((migration) => migration.name);
    expect(down.stdout).toContain(`rolled back ${newest[1] ?? ''}\nlampstand: rolled back ${newest[0] ?? ''}`);
    expect(await dataSource.query<unknown[]>('SELECT name FROM migrations')).toHaveLength(all.length - 2);
    expect((await migrate('--down', 'two')).code).toBe(2);
    const up = await migrate();
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toContain(`(${String(all.length)} migrations)`);
    expect(await missingSchema(dataSource)).toEqual([]);
  });
});
