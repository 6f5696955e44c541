// The app run for a moment by a command-line tool (`npm run plus`, `npm run admin`): with no
// background work, against the configured database and identity service. It is built and made
// ready but never listens: the embedded identity service answers supabase-js in-process, so a
// command opens no port and cannot be reached from the network while it runs.
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app/app.js';
import { ConfigError, loadConfig } from '../config.js';

/**
 * Starts the app, runs `use` on it and closes it; the exit code is `use`'s, or 1 for a
 * configuration that does not load (its message printed).
 */
export async function withRunningApp(use: (app: FastifyInstance) => Promise<number>): Promise<number> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return 1;
  }
  // No metrics port either: the server's own instance may hold it.
  const app = await buildApp(
    {
      ...config,
      host: '127.0.0.1',
      metricsPort: undefined,
      logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel,
    },
    { background: false },
  );
  try {
    await app.ready();
    return await use(app);
  } finally {
    await app.close();
  }
}
