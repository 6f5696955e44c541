import { readdirSync, readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * How much lower heavy work's threads run than the rest of the process (niceness, Linux). At 19, the
 * lowest priority, tried once, they took under 2% of a core beside any other busy process and a
 * test's twenty cards never finished beside two busy loops, while sign-ins under F11's load were no
 * faster; ten levels leave them about a tenth.
 */
export const HEAVY_NICENESS = 10;

const lowered = new Set<number>();

/**
 * Lowers the priority of this process's threads named `name` (their `comm`, as a native library
 * names the threads it starts) by `HEAVY_NICENESS`, once per thread: when a core is wanted by both,
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
      setPriority(id, Math.min(19, getPriority(id) + HEAVY_NICENESS));
      lowered.add(id);
    } catch {
      // The thread ended meanwhile, or lowering is not allowed: it keeps its priority.
    }
  }
}
