// P11, a realistic day (issue 32): Zipf-skewed visits over 100k profiles, with link clicks, `me`
// and members' edits mixed in, against the bare floor's P1 reads in the same run; its p99 and the
// answer cache's hit ratio; and what each kind of request costs the server in CPU (docs/scaling.md).
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { freePort } from '../../tests/support/app.js';
import { seededUsername } from '../seed.js';
import { publicPageVisit } from '../support/app-requests.js';
import type { Editor, Kind, MixRequest } from '../support/day-mix.js';
import { EDITORS, MIX, dayMix, pageRead } from '../support/day-mix.js';
import type { Load } from '../support/load.js';
import { alternate, checkSameAnswer, graphql, load, rotatingProfileQuery } from '../support/load.js';
import { CONNECTIONS, DURATION_S, quick, report, round } from '../support/options.js';
import type { Running } from '../support/servers.js';
import { seededDatabase, startFloor, startOurs } from '../support/servers.js';

/** Profiles the day's visits spread over (issue 32: a hundred thousand answers do not fit 32 MB). */
const DAY_PROFILES = quick ? 10_000 : 100_000;
const KINDS = Object.keys(MIX) as Kind[];

/**
 * The requests whose CPU cost is measured alone (docs/scaling.md): a page read (the page's HTML
 * document, rendered by the server) answered from a kept rendering (one page again and again), one
 * made afresh (every page once), and the day's other kinds.
 */
const COSTS = ['hit', 'miss', 'click', 'me', 'edit'] as const;
type Cost = (typeof COSTS)[number];

/** What one load run of the day saw beside its rate: requests by kind, kept answers served, CPU. */
interface Tally {
  /** Answers by kind (what was sent and answered: a request still out at the end is not counted). */
  sent: Record<string, number>;
  /** Milliseconds from sending to the answer, by kind. */
  latencies: Record<string, number[]>;
  cachedAnswers: number;
  cpuMs: number;
  answered: number;
}

/** What autocannon keeps for each connection: the request out on it now. */
interface Context {
  kind?: string;
  graphql?: boolean;
  started?: number;
}

/** The 99th percentile of `values`, in whole milliseconds; undefined when there are none. */
function p99(values: number[]): number | undefined {
  const sorted = [...values].sort((a, b) => a - b);
  const value = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))];
  return value === undefined ? undefined : Math.round(value);
}

/** The server's own CPU time so far (user + system), from /proc: what its requests cost it. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime, fields 14 and 15 of proc(5), in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** `lampstand_graphql_cached_answers_total` on the server's metrics port. */
async function cachedAnswers(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const value = /^lampstand_graphql_cached_answers_total (\d+)/m.exec(text)?.[1];
  if (value === undefined) throw new Error(`${metricsUrl} does not count cached answers`);
  return Number(value);
}

/** Members who edit during the day: signed up through the API as members are, each with a link. */
async function signUpEditors(url: string): Promise<Editor[]> {
  const editors: Editor[] = [];
  for (let index = 0; index < EDITORS; index++) {
    const signUp = (await graphql(
      url,
      'mutation ($input: SignUpInput!) { signUp(input: $input) { session { accessToken } member { profile { username } } } }',
      {
        input: {
          email: `editor-${index}-${Date.now()}@bench.example`,
          password: 'correct horse battery staple',
          first: `Editor ${index}`,
          platform: 'bench',
        },
      },
    )) as { data?: { signUp: { session: { accessToken: string } | null; member: { profile: { username: string } } } } };
    const token = signUp.data?.signUp.session?.accessToken;
    const username = signUp.data?.signUp.member.profile.username;
    if (!token || !username) throw new Error(`P11: an editor's sign-up failed: ${JSON.stringify(signUp)}`);
    const added = (await graphql(
      url,
      'mutation ($input: LinkInput!) { addLink(input: $input) { id } }',
      { input: { title: 'My church', url: 'https://church.example/' } },
      token,
    )) as { data?: { addLink: { id: string } } };
    const linkId = added.data?.addLink.id;
    if (!linkId) throw new Error(`P11: an editor's link was not added: ${JSON.stringify(added)}`);
    editors.push({ token, username, linkId });
  }
  return editors;
}

/**
 * A page read as the built app makes it, from Chromium: the document `/@username`, which the server
 * renders (the page makes no GraphQL request of its own). The run fails when a visit asks for more
 * than the day sends, or when the load's request for another page differs from the app's.
 */
async function appPageRead(url: string): Promise<Record<string, string>> {
  const [first, second] = [0, 2];
  const visits = [
    await publicPageVisit(url, seededUsername(first), `Member ${first}`),
    await publicPageVisit(url, seededUsername(second), `Member ${second}`),
  ];
  for (const [index, visit] of visits.entries()) {
    const username = seededUsername(index === 0 ? first : second);
    if (visit.graphql.length > 0) {
      throw new Error(`P11: the public page made ${visit.graphql.length} GraphQL requests; the day sends none`);
    }
    if (visit.document.method !== 'GET' || visit.document.path !== `/@${username}`) {
      throw new Error(`P11: the page read is ${visit.document.method} ${visit.document.path}, not GET /@${username}`);
    }
  }
  const [sample, check] = visits.map((visit) => JSON.stringify(visit.document.headers));
  if (sample !== check) throw new Error(`P11: the app's page reads differ in their headers: ${sample} ${check}`);
  return visits[0]?.document.headers ?? {};
}

/** One load run of the day (or of one kind of its requests) on our server, 32 connections. */
async function dayLoad(ours: Running, metricsUrl: string, next: () => MixRequest, seconds: number) {
  const sent: Record<string, number> = Object.fromEntries(KINDS.map((kind) => [kind, 0]));
  const latencies: Record<string, number[]> = {};
  const failures: string[] = [];
  const [hitsBefore, cpuBefore] = [await cachedAnswers(metricsUrl), cpuMs(ours.child.pid ?? 0)];
  const result = await autocannon({
    url: ours.url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        setupRequest: (request, context: Context) => {
          const made = next();
          // One request at a time on each connection: it is sent as it is set up.
          context.started = performance.now();
          context.kind = made.kind;
          context.graphql = made.path === '/graphql';
          return { ...request, method: made.method, path: made.path, headers: made.headers, body: made.body };
        },
        onResponse: (status, body, context: Context) => {
          const kind = context.kind ?? '?';
          sent[kind] = (sent[kind] ?? 0) + 1;
          (latencies[kind] ??= []).push(performance.now() - (context.started ?? 0));
          // An answer with errors (a refusal, a rate limit) is not the work the day measures.
          if (status >= 400 || (context.graphql && body.includes('"errors"'))) {
            failures.push(`${context.kind ?? '?'}: ${status} ${body.slice(0, 200)}`);
          }
        },
      },
    ],
  });
  if (failures.length + result.errors > 0) {
    throw new Error(
      `P11: ${failures.length} answers failed, ${result.errors} requests; first: ${failures.slice(0, 5).join('; ')}`,
    );
  }
  const tally: Tally = {
    sent,
    latencies,
    cachedAnswers: (await cachedAnswers(metricsUrl)) - hitsBefore,
    cpuMs: cpuMs(ours.child.pid ?? 0) - cpuBefore,
    answered: result['2xx'] + result['3xx'],
  };
  const run: Load = { rps: result.requests.average, p99: result.latency.p99, errors: 0 };
  return { run, tally };
}

/** The request of each kind whose cost is measured alone. */
function costRequests(
  pageHeaders: Record<string, string>,
  mix: (only?: Kind) => () => MixRequest,
): Record<Cost, () => MixRequest> {
  let next = 0;
  const page = (username: string): MixRequest => pageRead(username, pageHeaders);
  return {
    hit: () => page(seededUsername(0)),
    // Every page once, in turn: a page comes round again long after its rendering is gone.
    miss: () => page(seededUsername(next++ % DAY_PROFILES)),
    click: mix('click'),
    me: mix('me'),
    edit: mix('edit'),
  };
}

export async function realisticDay(): Promise<void> {
  const file = await seededDatabase(DAY_PROFILES, { links: true });
  const metricsPort = await freePort();
  const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  const ours = await startOurs({ SQLITE_FILE: file }, { METRICS_PORT: String(metricsPort) });
  const floor = await startFloor('sqlite', file);
  try {
    await checkSameAnswer(ours, floor);
    const pageHeaders = await appPageRead(ours.url);
    const editors = await signUpEditors(ours.url);
    // A page's rendering, as the answer cache keeps it (docs/scaling.md: how many fit in its memory).
    const answer = await fetch(`${ours.url}/@${seededUsername(1)}`, { headers: pageHeaders });
    const answerChars = (await answer.text()).length;
    const mix = (only?: Kind) => dayMix({ profiles: DAY_PROFILES, editors, pageHeaders, only });
    const tallies: Tally[] = [];
    const day = await alternate(
      async (seconds = DURATION_S) => {
        const { run, tally } = await dayLoad(ours, metricsUrl, mix(), seconds);
        tallies.push(tally);
        return run;
      },
      (seconds) => load(`${floor.url}/graphql`, rotatingProfileQuery(DAY_PROFILES), {}, seconds),
    );
    // The warm-up run is not counted, as in its rates.
    const counted = tallies.slice(1);
    const sum = (pick: (tally: Tally) => number) => counted.reduce((total, tally) => total + pick(tally), 0);
    const reads = sum((tally) => tally.sent.read ?? 0);
    const hitRatio = sum((tally) => tally.cachedAnswers) / reads;
    // What each kind costs on its own: the server's CPU per answer, each kind alone for a run.
    const alone = costRequests(pageHeaders, mix);
    const costs = {} as Record<Cost, number>;
    const rates = {} as Record<Cost, number>;
    for (const cost of COSTS) {
      const { run, tally } = await dayLoad(ours, metricsUrl, alone[cost], Math.max(2, DURATION_S / 2));
      costs[cost] = tally.cpuMs / tally.answered;
      rates[cost] = run.rps;
    }
    const kindP99 = (kind: Kind) => p99(counted.flatMap((tally) => tally.latencies[kind] ?? []));
    const ratio = day.ours.rps / day.floor.rps;
    const shares = KINDS.map(
      (kind) => `${round((100 * sum((tally) => tally.sent[kind] ?? 0)) / sum((t) => t.answered), 1)}% ${kind}`,
    );
    report({
      id: 'P11',
      label: `a realistic day, ${DAY_PROFILES} profiles, ours / bare P1`,
      value: round(ratio),
      unit: '',
      target: '≥ 1.0',
      pass: ratio >= 1,
      note: `${Math.round(day.ours.rps)} vs ${Math.round(day.floor.rps)} req/s; ${shares.join(', ')}; CPU ms per answer ${COSTS.map((cost) => `${cost} ${round(costs[cost])}`).join(', ')}`,
      detail: {
        profiles: DAY_PROFILES,
        answerChars,
        readsCounted: reads,
        oursRps: round(day.ours.rps, 0),
        floorRps: round(day.floor.rps, 0),
        p99Ms: day.ours.p99,
        floorP99Ms: day.floor.p99,
        hitRatio: round(hitRatio, 3),
        cpuMsPerAnswer: round(sum((tally) => tally.cpuMs) / sum((tally) => tally.answered), 3),
        ...Object.fromEntries(COSTS.map((cost) => [`cpuMs_${cost}`, round(costs[cost], 3)])),
        ...Object.fromEntries(COSTS.map((cost) => [`rps_${cost}`, round(rates[cost], 0)])),
        ...Object.fromEntries(
          KINDS.flatMap((kind) => {
            const ms = kindP99(kind);
            return ms === undefined ? [] : [[`p99Ms_${kind}`, ms] as const];
          }),
        ),
        ...Object.fromEntries(
          KINDS.map((kind) => [`share_${kind}`, round(sum((t) => t.sent[kind] ?? 0) / sum((t) => t.answered), 3)]),
        ),
      },
    });
    report({
      id: 'P11p',
      label: 'p99 latency of P11',
      value: day.ours.p99,
      unit: ' ms',
      target: '≤ 20 ms',
      pass: day.ours.p99 <= 20,
      note: `bare ${day.floor.p99} ms; by kind ${KINDS.map((kind) => `${kind} ${kindP99(kind) ?? 'none answered'}`).join(', ')} ms`,
    });
    report({
      id: 'P11h',
      label: "P11's page reads answered from kept answers",
      value: round(100 * hitRatio, 1),
      unit: ' %',
      target: 'reported',
      pass: null,
      note: `${sum((tally) => tally.cachedAnswers)} of ${reads} page reads (lampstand_graphql_cached_answers_total)`,
    });
  } finally {
    await floor.stop();
    await ours.stop();
  }
}
