import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Env } from '../../server/src/config.js';
import { freePort } from './app.js';

const serverRoot = path.resolve(import.meta.dirname, '../../server');
/** How long the identity process may take to listen (tsx compiles the sources first; a busy machine is slow at it). */
const START_TIMEOUT_MS = 180_000;

export interface IdentityProcess {
  /** Its origin, as SUPABASE_URL. */
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  /** Stops it (SIGTERM, then SIGKILL if it lingers) and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * Starts the identity service as its own process (`identity-server-main.ts`) on a loopback port,
 * with `env` for its settings (its database, token secret, SMTP server), and waits for its keys.
 */
export async function startIdentityProcess(env: Env): Promise<IdentityProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lampstand-identity-'));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'identity-server-main.ts')],
    {
      // tsx reads server/tsconfig.json from here (the entities need its legacy decorators).
      cwd: serverRoot,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: url,
        DATA_DIR: dataDir,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  let output = '';
  const keys = await new Promise<{ anonKey: string; serviceRoleKey: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`the identity process did not start:\n${output}`));
    }, START_TIMEOUT_MS);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = output.split('\n').find((candidate) => candidate.startsWith('{"anonKey"'));
      if (!line) return;
      clearTimeout(timer);
      resolve(JSON.parse(line) as { anonKey: string; serviceRoleKey: string });
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the identity process exited:\n${output}`));
    });
  });
  return {
    url,
    ...keys,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(killer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
