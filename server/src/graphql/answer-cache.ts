import { LRUCache } from 'lru-cache';

/** What an entry costs beyond its key and body, in characters: the cache's own bookkeeping. */
const ENTRY_OVERHEAD = 128;
/** Answers are kept within the minute they were made: schedules and days turn on minutes. */
const MINUTE_MS = 60_000;
/**
 * How long a reading of `externalVersion` is trusted. Reading it costs as much as the lookup an
 * answer saves (SQLite takes a read lock in its shared memory), so a busy server reads it about
 * twenty times a second instead of at every request.
 */
const EXTERNAL_CHECK_MS = 50;

export interface AnswerCacheOptions {
  /** The characters of keys and bodies kept at most (with a small overhead per entry). */
  maxChars: number;
  /** The clock (tests move it). */
  now?: () => number;
  /**
   * The version of the data as other processes may have changed it (SQLite's `data_version`), read
   * before an answer is served or made when the last reading is older than 50 ms; undefined when it
   * cannot be read right now, and then the cache is passed by. Absent where changes elsewhere are
   * reported through `invalidate`.
   */
  externalVersion?: () => number | undefined;
}

/** A reading of the cache taken before an answer is made: `store` keeps the answer only if it still holds. */
export type Ticket = number;
const NO_TICKET: Ticket = -1;

/**
 * Answers to anonymous public queries, kept whole: a hit is served without running the query.
 * Bounded by size; emptied whenever the data may have changed (`invalidate`, called after each
 * write, commit and rollback that may change it and on other processes' notices, and when
 * `externalVersion` moves) and when the minute turns, as link schedules, the day's verse and bans
 * turn on the clock. An answer made while
 * a change landed is not kept: `ticket` is taken before the reads, `store` refuses if anything
 * happened since.
 */
export class AnswerCache {
  private readonly entries: LRUCache<string, string>;
  private readonly now: () => number;
  private generation = 0;
  private minute: number;
  private version: number | undefined;
  private versionReadAt = Number.NEGATIVE_INFINITY;
  /** Off while changes made elsewhere could go unseen (a lost notice channel). */
  private suspended = false;

  constructor(private readonly options: AnswerCacheOptions) {
    this.entries = new LRUCache<string, string>({
      maxSize: options.maxChars,
      sizeCalculation: (body, key) => key.length + body.length + ENTRY_OVERHEAD,
    });
    this.now = options.now ?? Date.now;
    this.minute = Math.floor(this.now() / MINUTE_MS);
  }

  /** How many answers are kept now. */
  get size(): number {
    return this.entries.size;
  }

  /** The kept answer for `key`, or undefined. */
  get(key: string): string | undefined {
    if (this.suspended) return undefined;
    this.turnMinute();
    const body = this.entries.get(key);
    if (body === undefined) return undefined;
    const generation = this.generation;
    return this.unchangedElsewhere() && generation === this.generation ? body : undefined;
  }

  /** Taken before the reads that make an answer. */
  ticket(): Ticket {
    if (this.suspended) return NO_TICKET;
    this.turnMinute();
    return this.unchangedElsewhere() ? this.generation : NO_TICKET;
  }

  /** Keeps `body` for `key` unless anything changed since `ticket` was taken. */
  store(ticket: Ticket, key: string, body: string): void {
    if (ticket === NO_TICKET || this.suspended) return;
    this.turnMinute();
    if (ticket !== this.generation) return;
    this.entries.set(key, body);
  }

  /** The data may have changed: every kept answer goes, and answers being made are not kept. */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }

  /** Stops serving and keeping answers until `resume` (changes elsewhere could go unseen meanwhile). */
  suspend(): void {
    this.suspended = true;
    this.invalidate();
  }

  resume(): void {
    this.invalidate();
    this.suspended = false;
  }

  /** Empties the cache when the minute has turned since its answers were made. */
  private turnMinute(): void {
    const minute = Math.floor(this.now() / MINUTE_MS);
    if (minute === this.minute) return;
    this.minute = minute;
    this.invalidate();
  }

  /** False when the external version cannot be read; empties the cache when it has moved. */
  private unchangedElsewhere(): boolean {
    const read = this.options.externalVersion;
    if (!read) return true;
    const now = this.now();
    if (now - this.versionReadAt < EXTERNAL_CHECK_MS) return true;
    const version = read();
    if (version === undefined) return false;
    this.versionReadAt = now;
    if (version !== this.version) {
      this.version = version;
      this.invalidate();
    }
    return true;
  }
}
