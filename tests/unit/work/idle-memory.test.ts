import { afterEach, describe, expect, it } from 'vitest';
import { giveBackMemoryWhenIdle, type MemoryGivenBack } from '../../../server/src/work/idle-memory.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  stop = undefined;
});

/** Keeps the event loop busy (and the heap allocating) for `ms`, in slices, as a request load would. */
async function work(ms: number): Promise<void> {
  const until = performance.now() + ms;
  // The last hundred batches stay alive a while, as a busy server's requests in flight do.
  const kept: { index: number; text: string }[][] = [];
  let made = 0;
  while (performance.now() < until) {
    const slice = performance.now() + 8;
    while (performance.now() < slice) {
      kept[made++ % 100] = Array.from({ length: 2000 }, (_, index) => ({ index, text: `row ${index}` }));
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('giving memory back when idle', () => {
  it('shrinks the heap once a quiet spell follows work, and not again until work grew it', async () => {
    const given: MemoryGivenBack[] = [];
    // Quiet here is under half busy: on a loaded machine a timer's few microseconds can take a
    // millisecond of a short reading, while the work below keeps the loop busy throughout.
    ({ stop } = giveBackMemoryWhenIdle({
      sampleMs: 50,
      quietSamples: 3,
      quietUtilization: 0.5,
      growthMb: 2,
      onGivenBack: (result) => given.push(result),
    }));
    await work(600);
    // Work alone never gives back: the loop was busy throughout.
    expect(given).toHaveLength(0);
    while (given.length === 0) await sleep(20);
    expect(given[0]?.heapAfterMb).toBeLessThan(given[0]?.heapBeforeMb ?? 0);
    // The same quiet spell, many readings later: nothing more to give back.
    await sleep(1000);
    expect(given).toHaveLength(1);
    await work(300);
    while (given.length === 1) await sleep(20);
    expect(given).toHaveLength(2);
  });
});
