import { fileURLToPath } from 'node:url';
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
 * A pool of worker threads (piscina) for work that would otherwise hold the event loop, made at its
 * first task rather than at start (start-up time, quality.md P9), with no thread kept when idle.
 * Each task names its worker module (`workerFile`) and exported function; the modules import what
 * they need at their first task, too. Bounding how many tasks run or wait is `HeavyCapacity`'s job.
 */
export class WorkerPool {
  private pool: Promise<Piscina> | undefined;

  constructor(private readonly threads: number) {}

  run<T>(filename: string, name: string, input: unknown): Promise<T> {
    this.pool ??= import('piscina').then(
      ({ Piscina }) =>
        new Piscina({
          minThreads: 0,
          maxThreads: this.threads,
          idleTimeout: IDLE_MS,
          // A small JavaScript heap for the renderer's layout (the server's 16 MB semi-spaces are
          // for its request load); the images themselves are native memory.
          resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 4 },
        }),
    );
    return this.pool.then((pool) => pool.run(input, { filename, name }) as Promise<T>);
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    if (pool) await (await pool).destroy();
  }
}
