// `node server/dist/cli/migrate.js`: brings the configured database's schema up to date and exits.
// The deployment runs it once before the app instances start (docker/compose.yaml); the instances
// would migrate too, one at a time under a lock, but then find nothing left to do.
//
// `migrate.js --down N` rolls the last N migrations back instead (their `down`s, newest first), to
// return to an older release: run it with the release being left, which has those migrations' code.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { createDataSource } from '../app/data-source.js';
import { openDatabase } from '../db/data-source.js';

try {
  const { values } = parseArgs({ options: { down: { type: 'string' } }, strict: true });
  const down = values.down === undefined ? undefined : /^\d+$/.test(values.down) ? Number(values.down) : NaN;
  if (Number.isNaN(down)) {
    console.error('usage: migrate.js [--down N]   (N: how many of the latest migrations to roll back)');
    process.exit(2);
  }
  const config = loadConfig();
  if (down === undefined) {
    const dataSource = await openDatabase(createDataSource(config.database));
    const applied = await dataSource.query<unknown[]>('SELECT name FROM migrations');
    await dataSource.destroy();
    console.log(`lampstand: ${config.database.type} schema up to date (${applied.length} migrations)`);
  } else {
    const dataSource = await createDataSource(config.database).initialize();
    try {
      for (let step = 0; step < down; step++) {
        const [last] = await dataSource.query<{ name: string }[]>(
          'SELECT name FROM migrations ORDER BY id DESC LIMIT 1',
        );
        if (last === undefined) break;
        await dataSource.undoLastMigration({ transaction: 'each' });
        console.log(`lampstand: rolled back ${last.name}`);
      }
      const left = await dataSource.query<unknown[]>('SELECT name FROM migrations');
      console.log(`lampstand: ${config.database.type} schema at ${left.length} migrations`);
    } finally {
      await dataSource.destroy();
    }
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
