import type { Redis } from 'ioredis';

/** How long a shared copy is kept in Redis after it was last written. */
const SHARED_TTL_S = 7 * 24 * 3600;

/**
 * Rendered bytes kept by a key that names their content: in memory up to `maxBytes` (the least
 * recently used go first), and, with Redis, shared by every instance for a week, so that a card one
 * instance drew is not drawn again by the next. Redis being away only means drawing again.
 */
export class ByteCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly redis?: Redis,
    private readonly prefix = 'lampstand:render:',
  ) {}

  /** Bytes held in memory now. */
  get size(): number {
    return this.bytes;
  }

  async get(key: string): Promise<Buffer | undefined> {
    const kept = this.entries.get(key);
    if (kept) {
      // Most recently used last: a Map iterates in insertion order, so the first key is the oldest.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept;
    }
    if (!this.redis) return undefined;
    const shared = await this.redis.getBuffer(this.prefix + key).catch(() => null);
    if (!shared) return undefined;
    this.remember(key, shared);
    return shared;
  }

  set(key: string, body: Buffer): void {
    this.remember(key, body);
    void this.redis?.set(this.prefix + key, body, 'EX', SHARED_TTL_S).catch(() => undefined);
  }

  private remember(key: string, body: Buffer): void {
    if (body.length > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.length;
    }
    this.entries.set(key, body);
    this.bytes += body.length;
    for (const [oldest, value] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= value.length;
    }
  }
}
