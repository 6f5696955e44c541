// Starting and stopping what the figures measure: the production build on a seeded database, and
// the baselines of floor-server.ts, each in its own process; the build and the seeded databases.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { createDataSource } from '../../server/src/app/data-source.js';
import { openDatabase } from '../../server/src/db/data-source.js';
import { freePort } from '../../tests/support/app.js';
import { seedMembers } from '../seed.js';
import { root, scratch } from './options.js';

/** A PostgreSQL server where the bench may create (and then drop) its own database, for P10. */
const POSTGRES_ADMIN_URL =
  process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Every server the run started and has not stopped: the runner stops them all at the end. */
export const children = new Set<ChildProcess>();

export function ensureBuild(): void {
  const outputs = ['server/dist/main.js', 'web/dist/index.html', 'web/dist-ssr/ssr.js'];
  if (outputs.every((output) => existsSync(path.join(root, output)))) return;
  const build = spawnSync(process.execPath, [process.env.npm_execpath ?? 'npm', 'run', 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the build failed');
}

export async function seededDatabase(count: number, { links = false } = {}): Promise<string> {
  const file = path.join(scratch, `seed-${count}${links ? '-links' : ''}.sqlite`);
  if (existsSync(file)) return file;
  const dataSource = await openDatabase(createDataSource({ type: 'sqlite', file }));
  await seedMembers(dataSource, count, { links });
  await dataSource.query('PRAGMA wal_checkpoint(TRUNCATE)');
  await dataSource.destroy();
  return file;
}

/** Runs `sql` on the PostgreSQL server's admin database. */
async function administer(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** A fresh, migrated PostgreSQL database with `count` members; `drop` removes it. */
export async function seededPostgres(count: number): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `lampstand_bench_${randomBytes(4).toString('hex')}`;
  await administer(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const dataSource = await openDatabase(createDataSource({ type: 'postgres', url: url.toString() }));
  await seedMembers(dataSource, count);
  await dataSource.query('ANALYZE');
  await dataSource.destroy();
  return { url: url.toString(), drop: () => administer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** How much of a server's output is kept, from its end. */
const TAIL_BYTES = 8 * 1024;

/**
 * Keeps the end of a server's stdout (its log) and stderr, and prints it when the server ends
 * before the bench stops it (a crash, an uncaught error, the kernel's OOM killer), with its exit
 * code or signal, so that a lost server is explained rather than seen as "connection refused".
 */
function keepLastLines(child: ChildProcess): void {
  let tail = Buffer.alloc(0);
  const keep = (chunk: Buffer) => {
    tail = Buffer.concat([tail, chunk]);
    if (tail.length > 2 * TAIL_BYTES) tail = tail.subarray(tail.length - TAIL_BYTES);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.once('exit', (code, signal) => {
    if (!children.has(child)) return;
    const lines = tail
      .subarray(Math.max(0, tail.length - TAIL_BYTES))
      .toString('utf8')
      .split('\n')
      .slice(-30);
    console.error(
      `the server (pid ${child.pid}) ended by itself: ${signal ?? `exit code ${code}`}; its last lines:\n${lines.join('\n')}`,
    );
  });
}

/** How long a server may take to answer: seconds on a quiet machine, far more on a busy one. */
const START_TIMEOUT_MS = 180_000;

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  const deadline = performance.now() + START_TIMEOUT_MS;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${url} did not answer`);
}

export interface Running {
  url: string;
  child: ChildProcess;
  /** Milliseconds from spawn to ready. */
  startMs: number;
  stop(): Promise<void>;
}

/**
 * `BENCH_CPU_PROF=<folder>`: each server and floor writes a V8 CPU profile there when stopped
 * (`--cpu-prof`, which NODE_OPTIONS may not carry), named by side, to compare self-time shares.
 */
function profiling(side: string): string[] {
  const folder = process.env.BENCH_CPU_PROF;
  if (!folder) return [];
  return ['--cpu-prof', `--cpu-prof-dir=${folder}`, `--cpu-prof-name=${side}-${String(Date.now())}.cpuprofile`];
}

/** Answers not kept: for the figures that measure the work of a read itself (P1u, P3, P5). */
export const UNCACHED = { GRAPHQL_ANSWER_CACHE_MB: '0' };

/**
 * Starts the production build on the database `database` names (`SQLITE_FILE` or `DATABASE_URL`),
 * as shipped unless `settings` says otherwise.
 */
export async function startOurs(
  database: { SQLITE_FILE: string } | { DATABASE_URL: string },
  settings: Record<string, string> = {},
): Promise<Running> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const { flags, env } = JSON.parse(readFileSync(path.join(root, 'server/node-flags.json'), 'utf8')) as {
    flags: string[];
    env: Record<string, string>;
  };
  const child = spawn(process.execPath, [...flags, ...profiling('ours'), path.join(root, 'server/dist/main.js')], {
    cwd: path.join(root, 'server'),
    // Its log and stderr are kept (the last few lines) to explain a server that is lost mid-run.
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...env,
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: scratch,
      ...database,
      AUTH_JWT_SECRET: randomBytes(48).toString('base64'),
      AUTH_MFA_ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
      // Nothing is mailed by the bench; production takes a loopback relay only when told it is deliberate.
      SMTP_URL: 'smtp://127.0.0.1:1',
      SMTP_ALLOW_LOCAL: 'true',
      // The bench's own compile cache (server/src/main.ts): its first start compiles everything.
      NODE_COMPILE_CACHE: path.join(scratch, 'compile-cache'),
      RECONCILE_ON_START: 'false',
      AUTH_RATE_LIMIT_TOKEN: '1000000',
      AUTH_RATE_LIMIT_TOKEN_BURST: '1000000',
      AUTH_RATE_LIMIT_OTP: '1000000',
      ...settings,
    },
  });
  children.add(child);
  keepLastLines(child);
  await waitFor(`${url}/readyz`, child);
  return { url, child, startMs: performance.now() - started, stop: () => stop(child) };
}

export async function startFloor(kind: 'sqlite' | 'postgres' | 'hash', ...args: string[]): Promise<Running> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      ...profiling(`floor-${kind}`),
      path.join(root, 'bench/floor-server.ts'),
      kind,
      ...args,
      String(port),
    ],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    },
  );
  children.add(child);
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => {
      resolve();
    });
    child.once('exit', (code) => {
      reject(new Error(`the ${kind} floor exited (${code})`));
    });
  });
  return { url: `http://127.0.0.1:${port}`, child, startMs: performance.now() - started, stop: () => stop(child) };
}

export function stop(child: ChildProcess): Promise<void> {
  children.delete(child);
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => {
      resolve();
    });
    child.kill('SIGTERM');
  });
}
