// `npm run bench [-- --quick] [-- --soak]`: the performance figures P1–P10 and F11 of the quality
// catalogue (docs in bench/README.md), each as a ratio against a baseline measured in the same run.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import pg from 'pg';
import { createDataSource } from '../server/src/app/data-source.js';
import { openDatabase } from '../server/src/db/data-source.js';
import { routeScripts } from '../tests/support/bundle.js';
import { freePort } from '../tests/support/app.js';
import { ISOLATION_SETTINGS, measureIsolation } from './isolation.js';
import { seedMembers, seededUsername } from './seed.js';

const root = path.resolve(import.meta.dirname, '..');
const { values: options } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    soak: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
const quick = options.quick;
/** `--only P1,P3`: the figures to measure (with what they need: P3 is a ratio to P1); all by default. */
const only = options.only === undefined ? undefined : new Set(options.only.toUpperCase().split(/[\s,]+/));
const wanted = (...ids: string[]): boolean => only === undefined || ids.some((id) => only.has(id));
/** Seconds per load run, runs per side, connections (quality.md: 32), profiles for P1. */
const DURATION_S = quick ? 2 : 10;
const WARM_UP_S = quick ? 1 : 3;
const ROUNDS = 2;
const CONNECTIONS = 32;
const PROFILES = quick ? 1_000 : 10_000;
const SMALL = 1_000;
const LARGE = quick ? 10_000 : 100_000;
/** A PostgreSQL server where the bench may create (and then drop) its own database, for P10. */
const POSTGRES_ADMIN_URL =
  process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const PROFILE_QUERY =
  'query Profile($username: String!) { profile(username: $username) { username name joined versePinned } }';

export interface Figure {
  id: string;
  label: string;
  value: number | null;
  unit: string;
  target: string;
  pass: boolean | null;
  note?: string;
}

const figures: Figure[] = [];
const children = new Set<ChildProcess>();
const scratch = mkdtempSync(path.join(tmpdir(), 'lampstand-bench-'));

function report(figure: Figure): void {
  figures.push(figure);
  const value = figure.value === null ? 'not measured' : `${figure.value}${figure.unit}`;
  const verdict = figure.pass === null ? '' : figure.pass ? 'PASS' : 'MISS';
  console.log(
    `${figure.id.padEnd(4)} ${figure.label.padEnd(44)} ${value.padStart(14)}  target ${figure.target.padEnd(14)} ${verdict}${figure.note ? `  (${figure.note})` : ''}`,
  );
}

const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

function ensureBuild(): void {
  const outputs = ['server/dist/main.js', 'web/dist/index.html', 'web/dist-ssr/ssr.js'];
  if (outputs.every((output) => existsSync(path.join(root, output)))) return;
  const build = spawnSync(process.execPath, [process.env.npm_execpath ?? 'npm', 'run', 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the build failed');
}

async function seededDatabase(count: number): Promise<string> {
  const file = path.join(scratch, `seed-${count}.sqlite`);
  if (existsSync(file)) return file;
  const dataSource = await openDatabase(createDataSource({ type: 'sqlite', file }));
  await seedMembers(dataSource, count);
  await dataSource.query('PRAGMA wal_checkpoint(TRUNCATE)');
  await dataSource.destroy();
  return file;
}

/** The four Lighthouse categories of P8, and the score (0–100) each must reach. */
const LIGHTHOUSE_TARGETS = { performance: 95, accessibility: 100, 'best-practices': 95, seo: 95 } as const;
type LighthouseScores = Record<keyof typeof LIGHTHOUSE_TARGETS, number> & { metrics: string };

/** The metrics behind the performance score, as the note reports them (Lighthouse's audit ids). */
const LIGHTHOUSE_METRICS = [
  ['FCP', 'first-contentful-paint'],
  ['LCP', 'largest-contentful-paint'],
  ['TBT', 'total-blocking-time'],
  ['CLS', 'cumulative-layout-shift'],
] as const;

/**
 * Lighthouse's default (mobile) run on each page, in Debian's Chromium launched as the browser
 * tests launch it. Lighthouse never downloads a browser of its own here.
 */
async function lighthouseScores(urls: string[]): Promise<Map<string, LighthouseScores>> {
  const chrome = await launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    userDataDir: mkdtempSync(path.join(scratch, 'chromium-')),
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const scores = new Map<string, LighthouseScores>();
  try {
    for (const url of urls) scores.set(url, await scoredRun(chrome.port, url));
  } finally {
    chrome.kill();
  }
  return scores;
}

/**
 * One page's scores. A run that ends without a score (Lighthouse's runtime errors such as NO_FCP
 * on a loaded machine) is run again, at most three times in all; after that the bench fails and
 * says why, rather than report a score of 0.
 */
async function scoredRun(port: number, url: string): Promise<LighthouseScores> {
  const failures: string[] = [];
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const result = await lighthouse(url, { port, logLevel: 'error', onlyCategories: Object.keys(LIGHTHOUSE_TARGETS) });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { categories, runtimeError } = result.lhr;
    const ids = Object.keys(LIGHTHOUSE_TARGETS) as (keyof typeof LIGHTHOUSE_TARGETS)[];
    const unscored = ids.filter((id) => typeof categories[id]?.score !== 'number');
    if (unscored.length === 0) {
      const score = (id: keyof typeof LIGHTHOUSE_TARGETS): number => Math.round((categories[id]?.score ?? 0) * 100);
      const metrics = LIGHTHOUSE_METRICS.map(([name, id]) => `${name} ${result.lhr.audits[id]?.displayValue ?? '?'}`);
      return {
        ...Object.fromEntries(ids.map((id) => [id, score(id)])),
        metrics: metrics.join(', '),
      } as LighthouseScores;
    }
    const why = `run ${attempt}: no score for ${unscored.join(', ')} (${runtimeError?.code ?? 'no runtime error'})`;
    failures.push(why);
    console.error(`Lighthouse on ${url}, ${why}`);
  }
  throw new Error(`Lighthouse could not score ${url}: ${failures.join('; ')}`);
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
async function seededPostgres(count: number): Promise<{ url: string; drop: () => Promise<void> }> {
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

interface Running {
  url: string;
  child: ChildProcess;
  /** Milliseconds from spawn to ready. */
  startMs: number;
  stop(): Promise<void>;
}

/** Answers not kept: for the figures that measure the work of a read itself (P1u, P3, P5). */
const UNCACHED = { GRAPHQL_ANSWER_CACHE_MB: '0' };

/**
 * Starts the production build on the database `database` names (`SQLITE_FILE` or `DATABASE_URL`),
 * as shipped unless `settings` says otherwise.
 */
async function startOurs(
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
  const child = spawn(process.execPath, [...flags, path.join(root, 'server/dist/main.js')], {
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

async function startFloor(kind: 'sqlite' | 'postgres' | 'hash', ...args: string[]): Promise<Running> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench/floor-server.ts'), kind, ...args, String(port)],
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

function stop(child: ChildProcess): Promise<void> {
  children.delete(child);
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => {
      resolve();
    });
    child.kill('SIGTERM');
  });
}

interface Load {
  rps: number;
  p99: number;
  errors: number;
}

/** Drives `url` with POSTs whose bodies `next()` makes, 32 connections, for the run's duration. */
async function load(
  url: string,
  next: () => string,
  headers: Record<string, string> = {},
  duration = DURATION_S,
): Promise<Load> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    requests: [{ setupRequest: (request) => ({ ...request, body: next() }) }],
  });
  // A rate measured on failures is not a measurement.
  if (result.non2xx + result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} answers were not 2xx and ${result.errors} requests failed`);
  }
  return { rps: result.requests.average, p99: result.latency.p99, errors: 0 };
}

function rotatingProfileQuery(count: number): () => string {
  let index = 0;
  return () => JSON.stringify({ query: PROFILE_QUERY, variables: { username: seededUsername(index++ % count) } });
}

async function graphql(
  url: string,
  query: string,
  variables: Record<string, unknown>,
  token?: string,
): Promise<unknown> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return response.json();
}

/** The floor must answer byte for byte what we answer, or the ratio compares different work. */
async function checkSameAnswer(ours: Running, floor: Running): Promise<void> {
  const sample = rotatingProfileQuery(PROFILES)();
  const [mineText, floorText] = await Promise.all(
    [ours.url, floor.url].map(async (base) =>
      (
        await fetch(`${base}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: sample,
        })
      ).text(),
    ),
  );
  if (mineText !== floorText) throw new Error(`the floor's answer differs from ours:\n${mineText}\n${floorText}`);
}

function rssMb(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return round(kb / 1024, 0);
}

/** How long each side is warmed up, how many rounds each then runs, and for how long each. */
interface Schedule {
  warmUpS: number;
  rounds: number;
  durationS: number;
}

const SCHEDULE: Schedule = { warmUpS: WARM_UP_S, rounds: ROUNDS, durationS: DURATION_S };

/**
 * P4's. Three seconds of logins are a few hundred requests, where P1's warm-up has tens of
 * thousands: too few for the JIT to settle, and after them a login's main thread still cost ~20%
 * more than from the 15th second on. And one 10 s round of logins swings by ±0.05 on this kind of
 * machine (the host's load comes and goes over seconds), so more, shorter rounds: the same minute,
 * read more evenly on both sides.
 */
const LOGIN_SCHEDULE: Schedule = quick ? SCHEDULE : { warmUpS: 15, rounds: 6, durationS: 5 };

/**
 * Alternates ours and the floor `rounds` times each, after a warm-up run of each that is not
 * counted (the JIT, the pools, and the kept answers settle as in a server that has been up a
 * while); the mean of each side, and each round's ratio.
 */
async function alternate(
  ours: (seconds?: number) => Promise<Load>,
  floor: (seconds?: number) => Promise<Load>,
  { warmUpS, rounds, durationS }: Schedule = SCHEDULE,
): Promise<{ ours: Load; floor: Load; rounds: number[] }> {
  await ours(warmUpS);
  await floor(warmUpS);
  const mine: Load[] = [];
  const theirs: Load[] = [];
  for (let index = 0; index < rounds; index++) {
    mine.push(await ours(durationS));
    theirs.push(await floor(durationS));
  }
  const mean = (runs: Load[]): Load => ({
    rps: runs.reduce((sum, run) => sum + run.rps, 0) / runs.length,
    p99: Math.max(...runs.map((run) => run.p99)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  });
  return {
    ours: mean(mine),
    floor: mean(theirs),
    rounds: mine.map((run, index) => run.rps / (theirs[index]?.rps ?? Number.NaN)),
  };
}

async function main(): Promise<void> {
  ensureBuild();
  console.log(
    `Lampstand bench ${quick ? '(quick) ' : ''}on ${cpus().length} cores, ${round(totalmem() / 2 ** 30, 0)} GiB, Node ${process.version}`,
  );
  const mainFile = await seededDatabase(PROFILES);
  if (wanted('P9')) await startUp(mainFile);
  if (wanted('P1', 'P2', 'P3', 'P6')) await publicReads(mainFile);
  if (wanted('P4')) await login(mainFile);
  if (wanted('P5')) await dataSize();
  if (wanted('P7')) firstVisitScripts();
  if (wanted('P8')) await lighthouseFigures(mainFile);
  if (wanted('P10')) await postgresReads();
  if (wanted('F11')) await isolation(mainFile);

  const resultsDir = path.join(root, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${new Date().toISOString().replace(/[:.]/g, '-')}${quick ? '-quick' : ''}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      { date: new Date().toISOString(), quick, cores: cpus().length, node: process.version, figures },
      null,
      2,
    ),
  );
  console.log(`results: ${path.relative(root, file)}`);
}

/** Starts of the build P9 takes the median of (after its first start, which is reported beside it). */
const RESTARTS = 3;

/**
 * P9: the median of three starts of the production build on the migrated database, as a restart,
 * a deploy's next instance or a container made from the image starts: with the compile cache an
 * earlier start of the build wrote (server/src/main.ts; the image writes it at build time). The
 * build's very first start, which compiles every module, is in the note.
 */
async function startUp(mainFile: string): Promise<void> {
  const first = await startOurs({ SQLITE_FILE: mainFile });
  await first.stop();
  const starts: number[] = [];
  for (let index = 0; index < RESTARTS; index += 1) {
    const started = await startOurs({ SQLITE_FILE: mainFile });
    starts.push(started.startMs);
    await started.stop();
  }
  const median = [...starts].sort((a, b) => a - b)[Math.floor(RESTARTS / 2)] ?? Number.NaN;
  report({
    id: 'P9',
    label: 'start to /readyz, migrated SQLite',
    value: round(median / 1000),
    unit: ' s',
    target: '≤ 1.5 s',
    pass: median <= 1500,
    note: `starts ${starts.map((ms) => round(ms / 1000)).join(', ')} s; the build's first, compiling everything, ${round(first.startMs / 1000)} s`,
  });
}

/**
 * P1, P2 and P6 on the server as shipped (anonymous answers kept: graphql/answer-cache.ts); then
 * P1u, the same reads with no answer kept, and P3 on that server: what a read costs, cache aside.
 */
async function publicReads(mainFile: string): Promise<void> {
  const ours = await startOurs({ SQLITE_FILE: mainFile });
  const floor = await startFloor('sqlite', mainFile);
  await checkSameAnswer(ours, floor);
  const p1 = await alternate(
    (seconds) => load(`${ours.url}/graphql`, rotatingProfileQuery(PROFILES), {}, seconds),
    (seconds) => load(`${floor.url}/graphql`, rotatingProfileQuery(PROFILES), {}, seconds),
  );
  const p1Ratio = p1.ours.rps / p1.floor.rps;
  report({
    id: 'P1',
    label: `profile(username), ${PROFILES} profiles, ours / bare`,
    value: round(p1Ratio),
    unit: '',
    target: '≥ 0.75',
    pass: p1Ratio >= 0.75,
    note: `${Math.round(p1.ours.rps)} vs ${Math.round(p1.floor.rps)} req/s`,
  });
  report({
    id: 'P2',
    label: 'p99 latency of P1',
    value: p1.ours.p99,
    unit: ' ms',
    target: '≤ 15 ms',
    pass: p1.ours.p99 <= 15,
    note: `bare ${p1.floor.p99} ms`,
  });
  if (wanted('P6')) await memory(ours);
  await ours.stop();

  const uncached = await startOurs({ SQLITE_FILE: mainFile }, UNCACHED);
  const p1u = await alternate(
    (seconds) => load(`${uncached.url}/graphql`, rotatingProfileQuery(PROFILES), {}, seconds),
    (seconds) => load(`${floor.url}/graphql`, rotatingProfileQuery(PROFILES), {}, seconds),
  );
  await floor.stop();
  report({
    id: 'P1u',
    label: 'P1 with no answer kept, ours / bare',
    value: round(p1u.ours.rps / p1u.floor.rps),
    unit: '',
    target: 'reported',
    pass: null,
    note: `${Math.round(p1u.ours.rps)} vs ${Math.round(p1u.floor.rps)} req/s, p99 ${p1u.ours.p99} ms`,
  });
  if (wanted('P3')) await authenticatedReads(uncached);
  await uncached.stop();
}

/** P3: `me` with a bearer token, against P1u's read (the same server, no answer kept), alternated. */
async function authenticatedReads(ours: Running): Promise<void> {
  const signUp = (await graphql(
    ours.url,
    'mutation ($input: SignUpInput!) { signUp(input: $input) { session { accessToken } } }',
    {
      input: {
        email: `bench-${Date.now()}@bench.example`,
        password: 'correct horse battery staple',
        first: 'Bench',
        platform: 'bench',
      },
    },
  )) as { data?: { signUp: { session: { accessToken: string } | null } } };
  const token = signUp.data?.signUp.session?.accessToken;
  if (!token) throw new Error(`sign-up for P3 failed: ${JSON.stringify(signUp)}`);
  const meBody = JSON.stringify({ query: '{ me { user { email } profile { username name } } }' });
  const meAnswer = (await graphql(ours.url, '{ me { user { email } profile { username name } } }', {}, token)) as {
    errors?: unknown;
  };
  if (meAnswer.errors !== undefined) throw new Error(`the P3 query fails: ${JSON.stringify(meAnswer.errors)}`);
  const headers = { authorization: `Bearer ${token}` };
  // Alternated with P1u's reads on the same server, as P1 is with the floor.
  const p3 = await alternate(
    (seconds) => load(`${ours.url}/graphql`, () => meBody, headers, seconds),
    (seconds) => load(`${ours.url}/graphql`, rotatingProfileQuery(PROFILES), {}, seconds),
  );
  const p3Ratio = p3.ours.rps / p3.floor.rps;
  report({
    id: 'P3',
    label: '`me` with a bearer token / P1u',
    value: round(p3Ratio),
    unit: '',
    target: '≥ 0.9',
    pass: p3Ratio >= 0.9,
    note: `${Math.round(p3.ours.rps)} vs ${Math.round(p3.floor.rps)} req/s`,
  });
}

/** P6: resident memory after a minute of P1 (quick: after the runs above); --soak adds 5 minutes. */
async function memory(ours: Running): Promise<void> {
  if (!quick)
    await load(`${ours.url}/graphql`, rotatingProfileQuery(PROFILES), {}, Math.max(1, 60 - DURATION_S * ROUNDS));
  const rssMinute = rssMb(ours.child);
  report({
    id: 'P6',
    label: quick ? 'RSS after the P1 runs' : 'RSS after 60 s of P1',
    value: rssMinute,
    unit: ' MB',
    target: '≤ 250 MB',
    pass: rssMinute <= 250,
  });
  if (options.soak) {
    await load(`${ours.url}/graphql`, rotatingProfileQuery(PROFILES), {}, 240);
    const rssFive = rssMb(ours.child);
    report({
      id: 'P6b',
      label: 'RSS after 5 min / after 1 min',
      value: round(rssFive / rssMinute),
      unit: '',
      target: '≤ 1.2',
      pass: rssFive / rssMinute <= 1.2,
      note: `${rssFive} MB`,
    });
  }
}

/** P4: login against one argon2id verification per request. */
async function login(mainFile: string): Promise<void> {
  const ours = await startOurs({ SQLITE_FILE: mainFile });
  const email = `login-${Date.now()}@bench.example`;
  await graphql(ours.url, 'mutation ($input: SignUpInput!) { signUp(input: $input) { confirmationSent } }', {
    input: { email, password: 'correct horse battery staple', first: 'Bench', platform: 'bench' },
  });
  const loginBody = JSON.stringify({
    query: 'mutation ($input: LoginInput!) { login(input: $input) { session { expiresIn } } }',
    variables: { input: { email, password: 'correct horse battery staple' } },
  });
  const hashFloor = await startFloor('hash');
  const hashBody = JSON.stringify({ password: 'correct horse battery staple' });
  const p4 = await alternate(
    (seconds) => load(`${ours.url}/graphql`, () => loginBody, {}, seconds),
    (seconds) => load(hashFloor.url, () => hashBody, {}, seconds),
    LOGIN_SCHEDULE,
  );
  await hashFloor.stop();
  await ours.stop();
  const p4Ratio = p4.ours.rps / p4.floor.rps;
  report({
    id: 'P4',
    label: 'login / argon2id verification alone',
    value: round(p4Ratio),
    unit: '',
    target: '≥ 0.85',
    pass: p4Ratio >= 0.85,
    // Each round's ratio too: a server still warming up shows as a rising series.
    note: `${round(p4.ours.rps, 1)} vs ${round(p4.floor.rps, 1)} req/s, rounds ${p4.rounds.map((ratio) => round(ratio)).join(', ')}${p4.ours.errors ? `, ${p4.ours.errors} errors` : ''}`,
  });
}

/** P5: the same reads on many profiles against few. */
async function dataSize(): Promise<void> {
  const [smallFile, largeFile] = [await seededDatabase(SMALL), await seededDatabase(LARGE)];
  // The lookups themselves: with answers kept, the small side would be served from memory.
  const small = await startOurs({ SQLITE_FILE: smallFile }, UNCACHED);
  const large = await startOurs({ SQLITE_FILE: largeFile }, UNCACHED);
  const p5 = await alternate(
    (seconds) => load(`${large.url}/graphql`, rotatingProfileQuery(LARGE), {}, seconds),
    (seconds) => load(`${small.url}/graphql`, rotatingProfileQuery(SMALL), {}, seconds),
  );
  await small.stop();
  await large.stop();
  const p5Ratio = p5.ours.rps / p5.floor.rps;
  report({
    id: 'P5',
    label: `P1 with ${LARGE} / with ${SMALL} profiles`,
    value: round(p5Ratio),
    unit: '',
    target: '≥ 0.9',
    pass: p5Ratio >= 0.9,
  });
}

/** P7: the JavaScript a first visit to /@username loads: the public page's own document (profile.html). */
function firstVisitScripts(): void {
  const { gzipBytes } = routeScripts(path.join(root, 'web/dist'), [], 'profile.html');
  report({
    id: 'P7',
    label: 'JS for a first visit to /@username, gzip',
    value: round(gzipBytes / 1000, 1),
    unit: ' KB',
    target: '≤ 50 KB',
    pass: gzipBytes <= 50_000,
  });
}

/** P8: Lighthouse (mobile) on the landing page and a member's page, served by the production build. */
async function lighthouseFigures(mainFile: string): Promise<void> {
  const site = await startOurs({ SQLITE_FILE: mainFile });
  const pages = [`${site.url}/`, `${site.url}/@${seededUsername(1)}`];
  const lighthouseRun = await lighthouseScores(pages).finally(() => site.stop());
  const worst = (id: keyof typeof LIGHTHOUSE_TARGETS): number =>
    Math.min(...[...lighthouseRun.values()].map((scores) => scores[id]));
  const meets = (Object.keys(LIGHTHOUSE_TARGETS) as (keyof typeof LIGHTHOUSE_TARGETS)[]).every(
    (id) => worst(id) >= LIGHTHOUSE_TARGETS[id],
  );
  report({
    id: 'P8',
    label: 'Lighthouse (mobile) performance on / and /@username',
    value: worst('performance'),
    unit: '',
    target: '≥ 95 / 100',
    pass: meets,
    note: [...lighthouseRun]
      .map(
        ([url, scores]) =>
          `${new URL(url).pathname}: perf ${scores.performance} (${scores.metrics}), a11y ${scores.accessibility}, best ${scores['best-practices']}, seo ${scores.seo}`,
      )
      .join('; '),
  });
}

/**
 * F11: sign-ins while large uploads and new share cards are asked for (bench/isolation.ts), against
 * idle sign-ins on the same server; the server's RSS meanwhile; and /healthz during a card flood.
 */
async function isolation(mainFile: string): Promise<void> {
  const ours = await startOurs({ SQLITE_FILE: mainFile }, ISOLATION_SETTINGS);
  const f11 = await measureIsolation(ours.url, ours.child.pid ?? 0, quick ? 3 : DURATION_S, quick ? 20 : 40).finally(
    () => ours.stop(),
  );
  const ratio = f11.loadedP99 / f11.idleP99;
  const answers = Object.entries(f11.answers)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, times]) => `${times}× ${kind}`)
    .join(', ');
  report({
    id: 'F11',
    label: 'login p99 under uploads + new cards / idle',
    value: round(ratio),
    unit: '',
    target: '≤ 1.5',
    pass: ratio <= 1.5,
    note: `${f11.loadedP99} vs ${f11.idleP99} ms, ${round(f11.loadedRps, 1)} vs ${round(f11.idleRps, 1)} logins/s; ${answers}`,
  });
  report({
    id: 'F11m',
    label: 'RSS at most, during F11',
    value: f11.rssMaxMb,
    unit: ' MB',
    target: '≤ 250 MB',
    pass: f11.rssMaxMb <= 250,
    note: `${f11.rssIdleMb} MB before the load`,
  });
  report({
    id: 'F11h',
    label: '/healthz at most, during a card flood',
    value: round(f11.healthzMaxMs, 0),
    unit: ' ms',
    target: '≤ 100 ms',
    pass: f11.healthzMaxMs <= 100,
    note: `${f11.healthzChecks} checks while ${f11.floodCards} new cards were drawn in ${round(f11.floodMs / 1000, 1)} s`,
  });
}

/** P10: P1 on PostgreSQL, against node:http + graphql-js + a prepared pg statement. */
async function postgresReads(): Promise<void> {
  const postgres = await seededPostgres(PROFILES);
  try {
    const oursOnPostgres = await startOurs({ DATABASE_URL: postgres.url });
    const pgFloor = await startFloor('postgres', postgres.url);
    await checkSameAnswer(oursOnPostgres, pgFloor);
    const p10 = await alternate(
      (seconds) => load(`${oursOnPostgres.url}/graphql`, rotatingProfileQuery(PROFILES), {}, seconds),
      (seconds) => load(`${pgFloor.url}/graphql`, rotatingProfileQuery(PROFILES), {}, seconds),
    );
    await pgFloor.stop();
    await oursOnPostgres.stop();
    const p10Ratio = p10.ours.rps / p10.floor.rps;
    report({
      id: 'P10',
      label: 'P1 on PostgreSQL / bare pg floor',
      value: round(p10Ratio),
      unit: '',
      target: '≥ 0.7',
      pass: p10Ratio >= 0.7,
      note: `${Math.round(p10.ours.rps)} vs ${Math.round(p10.floor.rps)} req/s`,
    });
  } finally {
    await postgres.drop();
  }
}

try {
  await main();
} finally {
  await Promise.all([...children].map((child) => stop(child)));
  rmSync(scratch, { recursive: true, force: true });
}
