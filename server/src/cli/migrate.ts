// `node server/dist/cli/migrate.js`: brings the configured database's schema up to date and exits.
// The deployment runs it once before the app instances start (docker/compose.yaml); the instances
// would migrate too, one at a time under a lock, but then find nothing left to do.
import { ConfigError, loadConfig } from '../config.js';
import { createDataSource } from '../app/data-source.js';
import { openDatabase } from '../db/data-source.js';

try {
  const config = loadConfig();
  const dataSource = await openDatabase(createDataSource(config.database));
  const applied = await dataSource.query<unknown[]>('SELECT name FROM migrations');
  await dataSource.destroy();
  console.log(`lampstand: ${config.database.type} schema up to date (${applied.length} migrations)`);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
