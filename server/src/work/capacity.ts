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

/**
 * A bounded queue for one kind of heavy work (members' photo uploads; cards and QR codes drawn for
 * anyone): at most `slots` tasks run at once and at most `queueLimit` wait; past that `run` throws
 * `CapacityFull` at once, without starting anything. Each kind has its own, so that a flood of
 * anonymous card requests fills only its own queue and never puts off a member's upload. Password
 * hashing never enters one, so a sign-in is never queued behind an image.
 */
export class HeavyCapacity {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly slots: number,
    readonly queueLimit: number,
  ) {}

  /** Tasks running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.slots) {
      if (this.waiting.length >= this.queueLimit) {
        // About how long the queue ahead takes to drain, at a second a task: a hint, not a promise.
        throw new CapacityFull(Math.max(1, Math.ceil(this.waiting.length / this.slots)));
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next task in line; otherwise it is freed.
      if (next) next();
      else this.running -= 1;
    }
  }
}
