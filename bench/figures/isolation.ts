// F11 of the quality catalogue: sign-ins and health checks stay quick while visitors upload large
// photos and ask for share cards nobody asked for before (issue 27): F11, F11m and F11h.
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import { png16, pngImage } from '../../tests/support/images.js';
import { DURATION_S, quick, report, round } from '../support/options.js';
import { freePort } from '../../tests/support/app.js';
import { startOurs } from '../support/servers.js';
import type { LoadOrders, LoadResult } from './isolation-load.js';

/** Settings the F11 server runs with: the per-member and per-address limits would hide the load. */
const ISOLATION_SETTINGS = { PHOTO_UPLOADS_PER_HOUR: '1000000', RENDERS_PER_MINUTE: '1000000' };

const PASSWORD = 'correct horse battery staple';
/** Sign-ins at once: a steady trickle, so that p99 is a sign-in's own time rather than a queue's. */
const LOGIN_CONNECTIONS = 2;
/** The load: eight uploads and forty card requests, all at once, again and again. */
const UPLOADERS = 8;
const CARD_VISITORS = 40;

interface IsolationFigures {
  idleP99: number;
  loadedP99: number;
  idleRps: number;
  loadedRps: number;
  /** The p99 of the bench's own event-loop delay while it timed the sign-ins, idle and loaded. */
  idleDelayP99: number;
  loadedDelayP99: number;
  /** The same of the server's main thread. */
  serverIdleDelayP99: number;
  serverLoadedDelayP99: number;
  rssIdleMb: number;
  rssMaxMb: number;
  /** Answers to the uploads and card requests made during the loaded sign-ins, by status. */
  answers: Record<string, number>;
  /** The slowest /healthz while only cards were asked for (40 at once, each until drawn). */
  healthzMaxMs: number;
  healthzChecks: number;
  floodCards: number;
  floodMs: number;
}

function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/**
 * The p99 of the server's event-loop delay since the last call, in ms, from its metrics (prom-client
 * resets its delay histogram at each scrape).
 */
async function serverDelayP99(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const seconds = Number(/^nodejs_eventloop_lag_p99_seconds (\S+)$/m.exec(text)?.[1] ?? Number.NaN);
  return seconds * 1000;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function signUp(url: string, email: string): Promise<string> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'mutation ($input: SignUpInput!) { signUp(input: $input) { session { accessToken } } }',
      variables: { input: { email, password: PASSWORD, first: 'Bench', platform: 'bench' } },
    }),
  });
  const body = (await response.json()) as { data?: { signUp: { session: { accessToken: string } | null } } };
  const token = body.data?.signUp.session?.accessToken;
  if (!token) throw new Error(`F11: sign-up failed: ${JSON.stringify(body)}`);
  return token;
}

/**
 * p99 and rate of sign-ins (`login`) for `seconds`. A warm-up may see none finish (a busy machine
 * can take longer than a short warm-up for the first hashes); a measured window may not.
 */
async function logins(
  url: string,
  email: string,
  seconds: number,
  warmUp = false,
): Promise<{ p99: number; rps: number; delayP99: number }> {
  const body = JSON.stringify({
    query: 'mutation ($input: LoginInput!) { login(input: $input) { session { expiresIn } } }',
    variables: { input: { email, password: PASSWORD } },
  });
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const result = await autocannon({
    url: `${url}/graphql`,
    connections: LOGIN_CONNECTIONS,
    duration: seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  delay.disable();
  const delayP99 = delay.percentile(99) / 1e6;
  if (warmUp) return { p99: result.latency.p99, rps: result.requests.average, delayP99 };
  if (result.requests.total === 0) throw new Error(`F11: no sign-in was answered in ${seconds} s`);
  if (result.non2xx + result.errors > 0) {
    throw new Error(`F11: ${result.non2xx} sign-ins were not 2xx and ${result.errors} failed`);
  }
  return { p99: result.latency.p99, rps: result.requests.average, delayP99 };
}

/** Days no card was drawn for yet, one after the other from the `first`th after 2001-01-01 on. */
function dayCounter(first: number): () => string {
  let day = first;
  return () => new Date(Date.UTC(2001, 0, 1) + day++ * 86_400_000).toISOString().slice(0, 10);
}

/** Waits as long as a 503 or 429 says (at most a second: the bench keeps pressing). */
async function backOff(response: Response): Promise<void> {
  const seconds = Number(response.headers.get('retry-after') ?? 1);
  await sleep(Math.min(1000, Math.max(50, seconds * 1000)));
}

/**
 * Starts the uploads and card requests in a worker thread (isolation-load.ts), so that their 48
 * fetch loops do not delay the event loop timing the sign-ins, and answers once they are sent;
 * `stop` ends them and returns their answers.
 */
async function pressFromWorker(orders: LoadOrders): Promise<{ stop: () => Promise<LoadResult> }> {
  const worker = new Worker(new URL('./isolation-load.ts', import.meta.url), { workerData: orders });
  let pressing!: () => void;
  const started = new Promise<void>((resolve) => {
    pressing = resolve;
  });
  const done = new Promise<LoadResult>((resolve, reject) => {
    worker.on('message', (message: 'pressing' | LoadResult) => {
      if (message === 'pressing') pressing();
      else resolve(message);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      reject(new Error(`F11: the load's thread ended (${code}) before it was stopped`));
    });
  });
  // Its first requests are sent (starting a thread that compiles its module takes a while), or it failed.
  await Promise.race([started, done]);
  return {
    async stop() {
      worker.postMessage('stop');
      const result = await done;
      await worker.terminate();
      return result;
    },
  };
}

/** Samples the server's RSS every 100 ms, and with `health` /healthz's time every 10 ms, until `stop`. */
function watch(
  url: string,
  pid: number,
  health = true,
): { stop: () => Promise<{ rssMaxMb: number; healthzMaxMs: number; checks: number }> } {
  const state = { running: true };
  let rssMaxMb = 0;
  let healthzMaxMs = 0;
  let checks = 0;
  const rss = (async () => {
    while (state.running) {
      rssMaxMb = Math.max(rssMaxMb, rssMb(pid));
      await sleep(100);
    }
  })();
  const checking = (async () => {
    while (health && state.running) {
      const started = performance.now();
      const response = await fetch(`${url}/healthz`);
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`F11: /healthz answered ${response.status}`);
      healthzMaxMs = Math.max(healthzMaxMs, performance.now() - started);
      checks += 1;
      await sleep(10);
    }
  })();
  return {
    async stop() {
      state.running = false;
      await Promise.all([rss, checking]);
      return { rssMaxMb, healthzMaxMs, checks };
    },
  };
}

/**
 * F11. Idle sign-ins first (their p99), then the same sign-ins while eight members upload large
 * PNGs (four the 7000² at 16 bits, four 12-megapixel photos the server takes) and forty
 * visitors ask for verse cards of days nobody asked for, each again as soon as answered (after
 * `Retry-After` when put off), from a thread of their own (isolation-load.ts), with RSS sampled
 * throughout and the event-loop delay of the server and of the bench noted. Then a share-card flood alone:
 * `floodCards` (forty; fewer in the quick bench, which must finish within its test's timeout) cards
 * at once, each asked for until drawn, with /healthz timed every 10 ms.
 */
async function measureIsolation(
  url: string,
  metricsUrl: string,
  pid: number,
  seconds: number,
  floodCards = CARD_VISITORS,
): Promise<IsolationFigures> {
  const stamp = Date.now();
  const email = `f11-${stamp}@bench.example`;
  await signUp(url, email);
  const tokens = await Promise.all(
    Array.from({ length: UPLOADERS }, (_, index) => signUp(url, `f11-${stamp}-${index}@bench.example`)),
  );
  const [heavy, photo] = [await png16(7000), await pngImage(4000, 3000)];

  await logins(url, email, Math.max(1, Math.round(seconds / 2)), true);
  await serverDelayP99(metricsUrl);
  const idle = await logins(url, email, seconds);
  const serverIdleDelayP99 = await serverDelayP99(metricsUrl);
  const rssIdleMb = rssMb(pid);

  // RSS only: /healthz is timed in the flood below, and its checks are not part of the load.
  const watching = watch(url, pid, false);
  const load = await pressFromWorker({
    url,
    uploads: tokens.map((token, index) => ({ token, image: new Uint8Array(index % 2 === 0 ? heavy : photo) })),
    cardVisitors: CARD_VISITORS,
    firstDay: 0,
  });
  await sleep(250);
  await serverDelayP99(metricsUrl);
  const loaded = await logins(url, email, seconds);
  const serverLoadedDelayP99 = await serverDelayP99(metricsUrl);
  const { answers, nextDay: after } = await load.stop();
  const nextDay = dayCounter(after);
  const { rssMaxMb } = await watching.stop();

  // The flood alone: forty new cards at once, each asked for again after Retry-After until drawn.
  await sleep(500);
  const flood = watch(url, pid);
  const floodStart = performance.now();
  await Promise.all(
    Array.from({ length: floodCards }, async () => {
      const day = nextDay();
      for (;;) {
        const response = await fetch(`${url}/share/verse-of-the-day/${day}.png`);
        await response.arrayBuffer();
        if (response.ok) return;
        if (response.status !== 503 && response.status !== 429)
          throw new Error(`F11: a card answered ${response.status}`);
        await backOff(response);
      }
    }),
  );
  const floodMs = performance.now() - floodStart;
  const healthz = await flood.stop();
  return {
    idleP99: idle.p99,
    loadedP99: loaded.p99,
    idleRps: idle.rps,
    loadedRps: loaded.rps,
    idleDelayP99: idle.delayP99,
    loadedDelayP99: loaded.delayP99,
    serverIdleDelayP99,
    serverLoadedDelayP99,
    rssIdleMb,
    rssMaxMb: Math.max(rssMaxMb, healthz.rssMaxMb),
    answers,
    healthzMaxMs: healthz.healthzMaxMs,
    healthzChecks: healthz.checks,
    floodCards,
    floodMs,
  };
}

/**
 * F11: sign-ins while large uploads and new share cards are asked for (bench/isolation.ts), against
 * idle sign-ins on the same server; the server's RSS meanwhile; and /healthz during a card flood.
 */
export async function isolation(mainFile: string): Promise<void> {
  const metricsPort = await freePort();
  const ours = await startOurs({ SQLITE_FILE: mainFile }, { ...ISOLATION_SETTINGS, METRICS_PORT: String(metricsPort) });
  const f11 = await measureIsolation(
    ours.url,
    `http://127.0.0.1:${metricsPort}/metrics`,
    ours.child.pid ?? 0,
    quick ? 3 : DURATION_S,
    quick ? 20 : 40,
  ).finally(() => ours.stop());
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
    note: `${f11.loadedP99} vs ${f11.idleP99} ms, ${round(f11.loadedRps, 1)} vs ${round(f11.idleRps, 1)} logins/s; event-loop delay p99 ${round(f11.serverLoadedDelayP99, 1)} vs ${round(f11.serverIdleDelayP99, 1)} ms in the server, ${round(f11.loadedDelayP99, 1)} vs ${round(f11.idleDelayP99, 1)} ms in the bench; ${answers}`,
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
