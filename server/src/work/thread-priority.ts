import { readdirSync, readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * The niceness heavy work's threads run at (Linux): 19, the lowest priority there is. At ten levels
 * below the server (the first rounds) a heavy thread still had a tenth of the weight of a sign-in's
 * hash on a shared core; at 19 it has under 2%, and it still runs whenever a core is free.
 */
export const HEAVY_NICENESS = 19;

const lowered = new Set<number>();

/**
 * Lowers the priority of this process's threads named `name` (their `comm`, as a native library
 * names the threads it starts) to `HEAVY_NICENESS`, once per thread: when a core is wanted by both,
 * the event loop and password hashing (libuv's threads) go first. Linux only; elsewhere, or when
 * not allowed, nothing changes. It reads a few tiny files, so callers may call it after each task.
 */
export function lowerPriorityOfThreads(name: string): void {
  let threads: string[];
  try {
    threads = readdirSync('/proc/self/task');
  } catch {
    return;
  }
  for (const entry of threads) {
    const id = Number(entry);
    if (lowered.has(id)) continue;
    try {
      if (readFileSync(`/proc/self/task/${entry}/comm`, 'utf8').trim() !== name) continue;
      setPriority(id, Math.max(getPriority(id), HEAVY_NICENESS));
      lowered.add(id);
    } catch {
      // The thread ended meanwhile, or lowering is not allowed: it keeps its priority.
    }
  }
}
