import { expect } from 'vitest';

/** Rounds enough for a median that one stalled round cannot move; each needs its own address, plus one to warm up. */
export const TIMED_ROUNDS = 10;

/** Two ways of answering, timed against each other: each callback sends one request for round `index`. */
export interface TimedPair {
  known: (index: number) => Promise<void>;
  unknown: (index: number) => Promise<void>;
}

/** How `known` compared with `unknown`: the paired differences (known − unknown, ms), round by round. */
export interface TimeComparison {
  differences: number[];
  /** The median paired difference (ms): what a systematic gap would show as. */
  medianMs: number;
  /** The standard error of that median (ms), from the differences' spread (median absolute deviation). */
  standardErrorMs: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

async function timed(send: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await send();
  return performance.now() - started;
}

/**
 * Times `known` against `unknown`, `rounds` times each, after one round that warms both paths up.
 * Each round sends the pair back to back, first one then the other in turn, so that a machine
 * slowing down, warming up or busy with other work weighs on both alike; each round's difference
 * is one sample, and the median of them ignores the rounds a busy machine stalled.
 */
export async function compareTimes(rounds: number, send: TimedPair): Promise<TimeComparison> {
  await send.known(0);
  await send.unknown(0);
  const differences: number[] = [];
  for (let index = 1; index <= rounds; index++) {
    const order = index % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const);
    const ms = { known: 0, unknown: 0 };
    for (const kind of order) ms[kind] = await timed(() => send[kind](index));
    differences.push(ms.known - ms.unknown);
  }
  const medianMs = median(differences);
  // 1.4826 × MAD estimates the standard deviation; the median's standard error is √(π/2) σ/√n.
  const sigma = 1.4826 * median(differences.map((difference) => Math.abs(difference - medianMs)));
  const standardErrorMs = (Math.sqrt(Math.PI / 2) * sigma) / Math.sqrt(differences.length);
  return { differences, medianMs, standardErrorMs };
}

/**
 * Asserts that `known` and `unknown` answer in the same time, within `limitMs`: fails when the
 * median paired difference exceeds the limit by more than three standard errors. On a quiet
 * machine the samples agree and the bound is the limit itself; on a busy one the noise widens
 * it rather than failing a test of the product on the machine's load. A real gap (a step
 * skipped for one kind of address) shows in every round and so still fails.
 */
export function expectSameTime(comparison: TimeComparison, limitMs: number): void {
  const { differences, medianMs, standardErrorMs } = comparison;
  const rounded = differences.map((difference) => Math.round(difference * 10) / 10);
  expect(
    Math.abs(medianMs) - 3 * standardErrorMs,
    `median difference ${medianMs.toFixed(1)} ms ± ${standardErrorMs.toFixed(1)} ms; differences (ms): ${rounded.join(', ')}`,
  ).toBeLessThanOrEqual(limitMs);
}
