import { availableParallelism } from 'node:os';

/**
 * The heavy work a server does at once by default: all the cores but one, at most four. On a
 * two-core machine that is one image or card at a time, and the other core stays for the event
 * loop and password hashing (argon2 runs on libuv's threads, which image work never fills: see
 * `HeavyCapacity`).
 */
export function defaultHeavySlots(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/** The server is full of heavy work: the caller answers 503 with `Retry-After`. */
export class CapacityFull extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('The server is busy with other images; try again in a moment.');
    this.name = 'CapacityFull';
  }
}

/** Where one kind of heavy work waits for a place (see `HeavyCapacity.lane`). */
export interface HeavyLane {
  run<T>(task: () => Promise<T>): Promise<T>;
}

/**
 * A bound on heavy work: at most `slots` tasks run at once, whatever their kind, so that images
 * never take more cores than that. Each kind (members' photo uploads; cards and QR codes drawn for
 * anyone) waits in a lane of its own, at most `queueLimit` tasks; past that `run` throws
 * `CapacityFull` at once, without starting anything. A freed place goes to the next lane in turn
 * that has a task waiting, so a flood of anonymous card requests fills only its own lane and never
 * refuses or holds back a member's upload for long. Password hashing never enters it, so a sign-in
 * is never queued behind an image.
 */
export class HeavyCapacity {
  private running = 0;
  private readonly lanes: (() => void)[][] = [];
  private readonly defaultLane: HeavyLane = this.lane();

  constructor(
    readonly slots: number,
    readonly queueLimit: number,
  ) {}

  /** Tasks running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.lanes.reduce((sum, lane) => sum + lane.length, 0) };
  }

  /** A lane of its own for one kind of work. */
  lane(): HeavyLane {
    const waiting: (() => void)[] = [];
    this.lanes.push(waiting);
    const index = this.lanes.length - 1;
    return { run: (task) => this.runIn(index, task) };
  }

  /** Runs `task` in the default lane. */
  run<T>(task: () => Promise<T>): Promise<T> {
    return this.defaultLane.run(task);
  }

  private async runIn<T>(index: number, task: () => Promise<T>): Promise<T> {
    const waiting = this.lanes[index] ?? [];
    if (this.running >= this.slots) {
      if (waiting.length >= this.queueLimit) {
        // About how long the queue ahead takes to drain, at a second a task: a hint, not a promise.
        throw new CapacityFull(Math.max(1, Math.ceil(waiting.length / this.slots)));
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await task();
    } finally {
      this.release(index);
    }
  }

  /**
   * The place lane `from` frees passes straight to a task waiting in the next lane with one (its own
   * lane last); otherwise it is freed.
   */
  private release(from: number): void {
    for (let step = 1; step <= this.lanes.length; step++) {
      const next = this.lanes[(from + step) % this.lanes.length]?.shift();
      if (next) {
        next();
        return;
      }
    }
    this.running -= 1;
  }
}
