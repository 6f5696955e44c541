// Driving a server: autocannon's load, alternated with a baseline's, and single requests.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { seededUsername } from '../seed.js';
import { CONNECTIONS, DURATION_S, PROFILES, ROUNDS, WARM_UP_S, quick, round } from './options.js';
import type { Running } from './servers.js';

export const PROFILE_QUERY =
  'query Profile($username: String!) { profile(username: $username) { username name joined versePinned } }';

export interface Load {
  rps: number;
  p99: number;
  errors: number;
}

/** How many times a run with no answer at all is tried again, each for twice as long. */
const LONGER_RUNS = 4;

/**
 * Drives `url` with POSTs whose bodies `next()` makes, 32 connections, for the run's duration. A
 * run in which no request was answered (sign-ins in a quick two-second round on a machine at a load
 * average of 20) measured nothing: it runs again for twice as long, a few times, before failing.
 */
export async function load(
  url: string,
  next: () => string,
  headers: Record<string, string> = {},
  duration = DURATION_S,
): Promise<Load> {
  let seconds = duration;
  let result = await run(url, next, headers, seconds);
  for (let again = 0; result.requests.average === 0 && again < LONGER_RUNS; again++) {
    seconds *= 2;
    result = await run(url, next, headers, seconds);
  }
  if (result.requests.average === 0) throw new Error(`${url}: no request was answered in ${seconds} s`);
  // A rate measured on failures is not a measurement.
  if (result.non2xx + result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} answers were not 2xx and ${result.errors} requests failed`);
  }
  return { rps: result.requests.average, p99: result.latency.p99, errors: 0 };
}

function run(
  url: string,
  next: () => string,
  headers: Record<string, string>,
  duration: number,
): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    requests: [{ setupRequest: (request) => ({ ...request, body: next() }) }],
  });
}

export function rotatingProfileQuery(count: number): () => string {
  let index = 0;
  return () => JSON.stringify({ query: PROFILE_QUERY, variables: { username: seededUsername(index++ % count) } });
}

export async function graphql(
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
export async function checkSameAnswer(ours: Running, floor: Running): Promise<void> {
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

export function rssMb(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return round(kb / 1024, 0);
}

/** How long each side is warmed up, how many rounds each then runs, and for how long each. */
export interface Schedule {
  warmUpS: number;
  rounds: number;
  durationS: number;
}

export const SCHEDULE: Schedule = { warmUpS: WARM_UP_S, rounds: ROUNDS, durationS: DURATION_S };

/**
 * P4's. Three seconds of logins are a few hundred requests, where P1's warm-up has tens of
 * thousands: too few for the JIT to settle, and after them a login's main thread still cost ~20%
 * more than from the 15th second on. And one 10 s round of logins swings by ±0.05 on this kind of
 * machine (the host's load comes and goes over seconds), so more, shorter rounds: the same minute,
 * read more evenly on both sides.
 */
export const LOGIN_SCHEDULE: Schedule = quick ? SCHEDULE : { warmUpS: 15, rounds: 6, durationS: 5 };

/**
 * Alternates ours and the floor `rounds` times each, after a warm-up run of each that is not
 * counted (the JIT, the pools, and the kept answers settle as in a server that has been up a
 * while); the mean of each side, and each round's ratio.
 */
export async function alternate(
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
