import { performance } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * What one giving back did: the JavaScript heap's physical size before and after, the time the
 * event loop stood still, and the main thread's CPU in it (on a loaded machine the first is many
 * times the second).
 */
export interface MemoryGivenBack {
  heapBeforeMb: number;
  heapAfterMb: number;
  ms: number;
  cpuMs: number;
}

export interface IdleMemoryOptions {
  /** How often the event loop's use is read. */
  sampleMs?: number;
  /** Readings in a row the loop must be quiet for. */
  quietSamples?: number;
  /** The share of a reading's time the loop may be busy and still count as quiet. */
  quietUtilization?: number;
  /** How much the heap must have grown since it was last given back for another to be worth it. */
  growthMb?: number;
  /**
   * True while the server has work in flight that leaves its loop quiet (requests waiting on a
   * password hash or the database): no reading then counts as quiet.
   */
  working?: () => boolean;
  onGivenBack?: (result: MemoryGivenBack) => void;
}

const physicalHeapMb = (): number =>
  getHeapSpaceStatistics().reduce((sum, space) => sum + space.physical_space_size, 0) / 2 ** 20;

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
let collect: Collect | undefined;

/**
 * Gives the JavaScript heap's unused memory back to the system once the server has been quiet for a
 * while (by default five seconds in a row with its event loop at most 2% busy), when its heap has
 * grown by 8 MB since it last gave back. V8 keeps what a busy spell made it take: the young generation stays at
 * its largest (two 16 MB semi-spaces, server/node-flags.json) and the old generation's emptied pages
 * stay mapped, so a server that did anything held ~30–50 MB more than it needs while it waits. A
 * "last resort" collection (V8's own answer to a low-memory warning) shrinks both; the next busy
 * spell grows the young generation back within a few scavenges. It stops the loop for a collection
 * of the live heap (tens of milliseconds), which a quiet server can spare.
 */
export function giveBackMemoryWhenIdle(options: IdleMemoryOptions = {}): { stop: () => void } {
  const { sampleMs = 1000, quietSamples = 5, quietUtilization = 0.02, growthMb = 8, working, onGivenBack } = options;
  if (!collect) {
    setFlagsFromString('--expose-gc');
    // A context made after the flag has `gc`; the server's own global never gets one.
    collect = runInNewContext('gc') as Collect;
  }
  const giveBack = collect;
  let last = performance.eventLoopUtilization();
  let quiet = 0;
  // Start-up leaves the garbage of loading two thousand modules: the first quiet spell takes it.
  let givenBackTo = 0;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    quiet = busy > quietUtilization || working?.() ? 0 : quiet + 1;
    if (quiet < quietSamples) return;
    // Read only when quiet: it walks the heap's spaces, a few microseconds.
    const heapBeforeMb = physicalHeapMb();
    if (heapBeforeMb < givenBackTo + growthMb) return;
    const [started, cpu] = [performance.now(), process.threadCpuUsage()];
    giveBack({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    const used = process.threadCpuUsage(cpu);
    givenBackTo = physicalHeapMb();
    const [ms, cpuMs] = [performance.now() - started, (used.user + used.system) / 1000];
    onGivenBack?.({ heapBeforeMb, heapAfterMb: givenBackTo, ms, cpuMs });
    quiet = 0;
  }, sampleMs);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
    },
  };
}
