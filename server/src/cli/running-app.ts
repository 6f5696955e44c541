// The app run for a moment by a command-line tool (`npm run plus`, `npm run admin`): on a free
// loopback port, with no background work, against the configured database and identity service.
// It has to listen: the embedded identity service answers supabase-js over HTTP.
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app/app.js';
import { ConfigError, loadConfig } from '../config.js';

async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

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
  const port = await freeLoopbackPort();
  const app = await buildApp(
    { ...config, host: '127.0.0.1', port, logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel },
    { background: false },
  );
  try {
    await app.listen({ host: '127.0.0.1', port });
    return await use(app);
  } finally {
    await app.close();
  }
}
