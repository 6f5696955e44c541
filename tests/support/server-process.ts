import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Env } from '../../server/src/config.js';
import type { TestApp } from './app.js';
import { freePort, graphqlClient } from './app.js';

const serverRoot = path.resolve(import.meta.dirname, '../../server');

/**
 * How long a spawned server may take to answer `/readyz` (tsx compiles the sources first): a few
 * seconds on a quiet machine, ten times that on a busy one; past this it never will.
 */
const START_TIMEOUT_MS = 180_000;

export interface ServerProcess extends Pick<TestApp, 'graphql'> {
  url: string;
  /** Where its Prometheus metrics are served. */
  metricsUrl: string;
  child: ChildProcess;
  /** Settles when the process has exited, with its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** What it has written to stdout and stderr so far (its log lines), for failure messages. */
  output(): string;
  /** Kills it if it still runs and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * Starts the real server entry (`server/src/main.ts`, run by tsx) as its own process, as `npm run
 * dev` does, on loopback ports, and waits until `/readyz` answers 200. `env` is its whole
 * configuration besides ports, addresses and the data folder.
 */
export async function startServerProcess(env: Env, options: { launcher?: string[] } = {}): Promise<ServerProcess> {
  const [port, metricsPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lampstand-process-'));
  const url = `http://127.0.0.1:${port}`;
  // A launcher that execs its command (such as `prlimit --fsize=… --`) keeps the server's process id.
  const [command, ...args] = [...(options.launcher ?? []), process.execPath, '--import', 'tsx', 'src/main.ts'];
  const child = spawn(command, args, {
    cwd: serverRoot,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
      RECONCILE_ON_START: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      resolve(code);
    });
  });
  const state = { running: true };
  void exited.then(() => (state.running = false));

  const stop = async (): Promise<void> => {
    if (state.running) {
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const ready = await fetch(`${url}/readyz`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) break;
    if (!state.running || Date.now() > deadline) {
      const code = state.running ? 'still running' : `exit code ${String(child.exitCode)}`;
      await stop();
      throw new Error(`the server process did not become ready (${code}):\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    child,
    exited,
    output: () => output,
    stop,
    graphql: graphqlClient(url),
  };
}
