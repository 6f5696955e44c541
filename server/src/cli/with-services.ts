// The services run for a moment by a command-line tool (`npm run plus`, `npm run admin`): with no
// background work, against the configured database and identity service, and with no HTTP server
// at all. The embedded identity service answers supabase-js in-process, so a command opens no port
// and cannot be reached from the network while it runs.
import { announceCommits } from '../app/public-answers.js';
import { buildServices } from '../app/services.js';
import { ConfigError, loadConfig } from '../config.js';
import type { Services } from '../kernel/feature-module.js';

/**
 * Builds the services, runs `use` on them and closes them; the exit code is `use`'s, or 1 for a
 * configuration that does not load (its message printed).
 */
export async function withServices(use: (services: Services) => Promise<number>): Promise<number> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return 1;
  }
  const built = await buildServices(
    { ...config, logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel },
    { background: false },
  );
  // The instances keeping public answers must hear of what the command changes.
  const stopAnnouncing = announceCommits(built.kernel.dataSource, built.kernel.log);
  try {
    return await use(built.services);
  } finally {
    await stopAnnouncing();
    await built.close();
  }
}
