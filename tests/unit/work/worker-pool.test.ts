import { setFlagsFromString } from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool, workerFile } from '../../../server/src/work/worker-pool.js';

const THREAD_WORKER = workerFile(new URL('./fixtures/thread.worker.ts', import.meta.url).href, 'thread.worker');

let pool: WorkerPool | undefined;
afterEach(async () => {
  await pool?.close();
});

describe('the worker pool', () => {
  it('runs tasks off the main thread and replaces its threads after so many tasks', async () => {
    pool = new WorkerPool(1, 2);
    const threads: number[] = [];
    for (let task = 0; task < 5; task++) threads.push(await pool.run<number>(THREAD_WORKER, 'thread', null));
    expect(threads.every((id) => id > 0)).toBe(true);
    const [a, b, c, d, e] = threads;
    expect(a).toBe(b);
    expect(c).not.toBe(a);
    expect(c).toBe(d);
    expect(e).not.toBe(c);
  });

  it('lets the tasks of replaced threads finish', async () => {
    const recycling = new WorkerPool(1, 1);
    pool = recycling;
    const answers = await Promise.all([0, 1, 2, 3].map(() => recycling.run<number>(THREAD_WORKER, 'thread', null)));
    expect(answers.every((id) => typeof id === 'number' && id > 0)).toBe(true);
    expect(new Set(answers).size).toBe(4);
  });

  it('gives its threads their own small heap, not the one the server’s flags size', async () => {
    // server/node-flags.json's flags, which V8 would otherwise apply to every thread's heap too.
    setFlagsFromString('--max-semi-space-size=16');
    setFlagsFromString('--max-old-space-size=192');
    pool = new WorkerPool(1);
    expect(await pool.run<number>(THREAD_WORKER, 'heapLimitMb', null)).toBeLessThan(100);
  });
});
