/**
 * How much longer, on average, answering `known` takes than answering `unknown` (ms, absolute).
 * The two run interleaved, `rounds` times each, so that a machine slowing down or warming up
 * weighs on both alike. Each callback sends one request for round `index` and checks its answer.
 */
export async function meanTimeDifference(
  rounds: number,
  send: { known: (index: number) => Promise<void>; unknown: (index: number) => Promise<void> },
): Promise<number> {
  const total = { known: 0, unknown: 0 };
  for (let index = 0; index < rounds; index++) {
    for (const kind of ['known', 'unknown'] as const) {
      const started = performance.now();
      await send[kind](index);
      total[kind] += performance.now() - started;
    }
  }
  return Math.abs(total.known - total.unknown) / rounds;
}
