import type { KeyObject } from 'node:crypto';
import { createHmac, createSecretKey, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { Visitor } from '../http/visits.js';

/** Visitors one process remembers a day without Redis: past that the oldest may count again. */
const MEMORY_SIGHTINGS = 100_000;
/** Keys and sightings outlive their day by this much (clocks of instances differ a little). */
const GRACE_SECONDS = 3600;
const PREFIX = 'lampstand:visits';

/** Seconds from `at` to the end of its UTC day, plus the grace. */
function secondsLeft(day: string, at: Date): number {
  const end = Date.parse(`${day}T00:00:00Z`) + 86_400_000;
  return Math.max(1, Math.ceil((end - at.getTime()) / 1000)) + GRACE_SECONDS;
}

/** Where a day's key and the hashes seen that day live (never the database). */
interface SightingStore {
  /** The day's random key, made by the first instance to need it. */
  key(day: string, at: Date): Promise<Buffer>;
  /** True when `hash` had not been seen yet on `day` (and remembers it). */
  firstSighting(day: string, hash: string, at: Date): Promise<boolean>;
}

/**
 * One process's store: the key and sightings of the current day only, forgotten when it ends. The
 * sightings are a set that forgets its oldest past `MEMORY_SIGHTINGS` (a hash is only ever added
 * once, so oldest first is what an LRU would forget): an `LRUCache` of that size allocated its
 * 100,000 slots at start, 2.8 MB of every process's heap before any visit.
 */
class MemoryStore implements SightingStore {
  private day = '';
  private dayKey = randomBytes(32);
  private readonly seen = new Set<string>();

  private turnTo(day: string): void {
    if (day === this.day) return;
    this.day = day;
    this.dayKey = randomBytes(32);
    this.seen.clear();
  }

  key(day: string): Promise<Buffer> {
    this.turnTo(day);
    return Promise.resolve(this.dayKey);
  }

  firstSighting(day: string, hash: string): Promise<boolean> {
    this.turnTo(day);
    if (this.seen.has(hash)) return Promise.resolve(false);
    if (this.seen.size >= MEMORY_SIGHTINGS) {
      const oldest = this.seen.values().next();
      if (!oldest.done) this.seen.delete(oldest.value);
    }
    this.seen.add(hash);
    return Promise.resolve(true);
  }
}

/** Every instance's store: the day's key and sightings in Redis, each expiring an hour after the day. */
class RedisStore implements SightingStore {
  private known: { day: string; key: Buffer } | undefined;

  constructor(private readonly redis: Redis) {}

  async key(day: string, at: Date): Promise<Buffer> {
    if (this.known?.day === day) return this.known.key;
    const name = `${PREFIX}:key:${day}`;
    // The first instance to ask makes the key; every other one reads that same key.
    await this.redis.set(name, randomBytes(32).toString('base64'), 'EX', secondsLeft(day, at), 'NX');
    const stored = await this.redis.get(name);
    if (stored === null) throw new Error('the day’s visit key vanished from Redis');
    this.known = { day, key: Buffer.from(stored, 'base64') };
    return this.known.key;
  }

  async firstSighting(day: string, hash: string, at: Date): Promise<boolean> {
    const answer = await this.redis.set(`${PREFIX}:seen:${day}:${hash}`, '1', 'EX', secondsLeft(day, at), 'NX');
    return answer === 'OK';
  }
}

/**
 * Whether a visitor is seen for the first time today on a page (or link): the method of
 * privacy-first analytics. A visitor is a keyed hash (HMAC-SHA256) of the scope, the address and
 * the user agent, under a random key made for each UTC day. The key and the hashes live in memory,
 * or with REDIS_URL in Redis so that all instances agree, and expire with the day; the database
 * only ever gets daily totals. Once the key is gone nobody, us included, can tell whose a hash was.
 * While Redis is away, this process's own memory stands in (a visitor may then count twice).
 */
export class FirstVisits {
  private readonly memory = new MemoryStore();
  private readonly shared: RedisStore | undefined;
  private imported: { raw: Buffer; key: KeyObject } | undefined;

  constructor(
    redis?: Redis,
    private readonly log?: FastifyBaseLogger,
  ) {
    this.shared = redis ? new RedisStore(redis) : undefined;
  }

  /** True for the first sighting today of `visitor` in `scope` (`view:<uid>`, `click:<link id>`). */
  async first(scope: string, visitor: Visitor, at: Date = new Date()): Promise<boolean> {
    const day = at.toISOString().slice(0, 10);
    if (this.shared) {
      try {
        return await this.check(this.shared, scope, visitor, day, at);
      } catch (error) {
        this.log?.warn({ err: error }, 'redis could not check a visit; this process checks it alone');
      }
    }
    return this.check(this.memory, scope, visitor, day, at);
  }

  /** The day's key as a KeyObject, made once a key: given as bytes, HMAC imports it again each time. */
  private keyObject(raw: Buffer): KeyObject {
    if (this.imported?.raw !== raw) this.imported = { raw, key: createSecretKey(raw) };
    return this.imported.key;
  }

  private async check(store: SightingStore, scope: string, visitor: Visitor, day: string, at: Date): Promise<boolean> {
    const hash = createHmac('sha256', this.keyObject(await store.key(day, at)))
      .update(`${scope}\n${visitor.address}\n${visitor.userAgent}`)
      .digest('base64url')
      .slice(0, 22);
    return store.firstSighting(day, hash, at);
  }
}
