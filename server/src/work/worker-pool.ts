import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import type { Piscina } from 'piscina';

/**
 * The file of a worker module beside the module at `metaUrl`: `name.ts` when running from the
 * sources (tests, `npm run dev`; Node strips the types), `name.js` in the build.
 */
export function workerFile(metaUrl: string, name: string): string {
  const extension = metaUrl.endsWith('.ts') ? '.ts' : '.js';
  return fileURLToPath(new URL(`./${name}${extension}`, metaUrl));
}

/** How long an idle thread is kept before it ends (and the memory its libraries hold goes with it). */
const IDLE_MS = 60_000;

/**
 * Tasks a pool's threads run before new threads take over: a bound on whatever a long-lived thread
 * might keep (a library's caches, its allocator's free lists); starting one costs ~0.3 s.
 */
const RECYCLE_AFTER = 100;

/**
 * Leaves each thread's heap to its `resourceLimits`. V8's heap flags are the process's, and the
 * server's (server/node-flags.json: 16 MB semi-spaces, a 192 MB old generation, sized for the main
 * thread's request load) win over a worker's limits: every card thread had the main thread's young
 * generation too. The main thread's heap was sized at its start and keeps its size; unset from now
 * on, the flags leave the threads' heaps to the limits given below.
 */
function leaveHeapSizesToThreads(): void {
  setFlagsFromString('--max-semi-space-size=0');
  setFlagsFromString('--max-old-space-size=0');
}

/**
 * A pool of worker threads (piscina) for work that would otherwise hold the event loop, made at its
 * first task rather than at start (start-up time, quality.md P9), with no thread kept when idle.
 * Each task names its worker module (`workerFile`) and exported function; the modules import what
 * they need at their first task, too. Every `recycleAfter` tasks the threads are replaced.
 * Bounding how many tasks run or wait is `HeavyCapacity`'s job.
 */
export class WorkerPool {
  private pool: Promise<Piscina> | undefined;
  /** The tasks given to the current threads. */
  private tasks: Promise<unknown>[] = [];

  constructor(
    private readonly threads: number,
    private readonly recycleAfter = RECYCLE_AFTER,
  ) {}

  run<T>(filename: string, name: string, input: unknown): Promise<T> {
    if (this.tasks.length >= this.recycleAfter) this.retire();
    this.pool ??= import('piscina').then(({ Piscina }) => {
      leaveHeapSizesToThreads();
      return new Piscina({
        minThreads: 0,
        maxThreads: this.threads,
        idleTimeout: IDLE_MS,
        // A small JavaScript heap for the renderer's layout (the server's 16 MB semi-spaces are
        // for its request load); the images themselves are native memory.
        resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 4 },
      });
    });
    const task = this.pool.then((pool) => pool.run(input, { filename, name }) as Promise<T>);
    this.tasks.push(task);
    return task;
  }

  /** The next task starts new threads; the old ones end once all their tasks are done. */
  private retire(): void {
    const [pool, tasks] = [this.pool, this.tasks];
    this.pool = undefined;
    this.tasks = [];
    void Promise.allSettled(tasks)
      .then(async () => (await pool)?.destroy())
      .catch(() => undefined);
  }

  async close(): Promise<void> {
    const [pool, tasks] = [this.pool, this.tasks];
    this.pool = undefined;
    this.tasks = [];
    await Promise.allSettled(tasks);
    if (pool) await (await pool).destroy();
  }
}
