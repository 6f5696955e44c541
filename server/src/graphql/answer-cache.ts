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

/** A kept answer: its bytes, and the strong ETag made for them once, when kept. */
export interface KeptAnswer {
  body: string;
  etag: string | undefined;
}

interface Entry extends KeptAnswer {
  /** The rows the answer read (see `store`). */
  rows: readonly string[];
}

/**
 * How many changed rows are remembered for the answers being made meanwhile (`store` compares the
 * ticket with them); past that the oldest is forgotten and answers begun before it are not kept.
 */
const ROW_CHANGES_MAX = 10_000;

/**
 * Answers to anonymous public queries, kept whole: a hit is served without running the query.
 * Bounded by size. Each answer names the rows it read (a member's uid for all of that member's
 * rows: profile, owner, links, photo); a change to some rows drops only the answers that read them
 * (`invalidate(rows)`), and any other change, the turn of the minute (link schedules, the day's
 * verse and bans turn on the clock) or a move of `externalVersion` empties the cache. An answer
 * made while a change to its rows landed is not kept: `ticket` is taken before the reads, `store`
 * refuses if anything it read changed since.
 */
export class AnswerCache {
  private readonly entries: LRUCache<string, Entry>;
  /** The keys of the kept answers that read each row. */
  private readonly keysByRow = new Map<string, Set<string>>();
  /** The change count when each recently changed row last changed. */
  private readonly rowChanges: LRUCache<string, number>;
  private readonly now: () => number;
  /** Counts changes: a ticket is its value when taken. */
  private changes = 0;
  /** The change count at the last emptying: tickets older than this are refused. */
  private emptiedAt = 0;
  /** The newest change count forgotten by `rowChanges`: tickets older than this are refused too. */
  private forgottenAt = 0;
  private minute: number;
  private version: number | undefined;
  private versionReadAt = Number.NEGATIVE_INFINITY;
  /** Off while changes made elsewhere could go unseen (a lost notice channel). */
  private suspended = false;

  constructor(private readonly options: AnswerCacheOptions) {
    this.entries = new LRUCache<string, Entry>({
      maxSize: options.maxChars,
      sizeCalculation: (entry, key) =>
        key.length + entry.body.length + (entry.etag?.length ?? 0) + ENTRY_OVERHEAD + entry.rows.length * 40,
      dispose: (entry, key) => {
        for (const row of entry.rows) {
          const keys = this.keysByRow.get(row);
          keys?.delete(key);
          if (keys?.size === 0) this.keysByRow.delete(row);
        }
      },
    });
    this.rowChanges = new LRUCache<string, number>({
      max: ROW_CHANGES_MAX,
      dispose: (changedAt, _row, reason) => {
        if (reason === 'evict') this.forgottenAt = Math.max(this.forgottenAt, changedAt);
      },
    });
    this.now = options.now ?? Date.now;
    this.minute = Math.floor(this.now() / MINUTE_MS);
  }

  /** How many answers are kept now. */
  get size(): number {
    return this.entries.size;
  }

  /** The kept answer's body for `key`, or undefined. */
  get(key: string): string | undefined {
    return this.lookup(key)?.body;
  }

  /** The kept answer for `key` with its ETag, or undefined. */
  lookup(key: string): KeptAnswer | undefined {
    if (this.suspended) return undefined;
    this.turnMinute();
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    const emptiedAt = this.emptiedAt;
    return this.unchangedElsewhere() && emptiedAt === this.emptiedAt ? entry : undefined;
  }

  /** Taken before the reads that make an answer. */
  ticket(): Ticket {
    if (this.suspended) return NO_TICKET;
    this.turnMinute();
    return this.unchangedElsewhere() ? this.changes : NO_TICKET;
  }

  /**
   * Keeps `body` for `key` unless the cache was emptied, or one of `rows` changed, since `ticket`
   * was taken. `rows` are the rows the answer read whose changes are reported row by row (every
   * other read is covered by the changes that empty the cache); `etag`, the tag sent with it.
   */
  store(
    ticket: Ticket,
    key: string,
    body: string,
    { etag, rows = [] }: { etag?: string; rows?: Iterable<string> } = {},
  ): void {
    if (ticket === NO_TICKET || this.suspended) return;
    this.turnMinute();
    if (ticket < this.emptiedAt || ticket < this.forgottenAt) return;
    const read = [...rows];
    for (const row of read) if ((this.rowChanges.peek(row) ?? NO_TICKET) > ticket) return;
    this.entries.set(key, { body, etag, rows: read });
    // After `set`: replacing an entry disposes of the old one, which takes its key out of the index.
    if (!this.entries.has(key)) return;
    for (const row of read) {
      let keys = this.keysByRow.get(row);
      if (!keys) {
        keys = new Set();
        this.keysByRow.set(row, keys);
      }
      keys.add(key);
    }
  }

  /**
   * The data may have changed: with `rows`, the kept answers that read one of them go (and answers
   * being made that read one are not kept); without, every kept answer goes.
   */
  invalidate(rows?: Iterable<string>): void {
    this.changes++;
    if (rows === undefined) {
      this.emptiedAt = this.changes;
      this.entries.clear();
      this.keysByRow.clear();
      this.rowChanges.clear();
      return;
    }
    for (const row of rows) {
      this.rowChanges.set(row, this.changes);
      const keys = this.keysByRow.get(row);
      if (!keys) continue;
      this.keysByRow.delete(row);
      for (const key of keys) this.entries.delete(key);
    }
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
