import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * A fixed window of `points` per `durationS` seconds per key. With Redis every instance counts
 * together; its own count stands in while Redis is away (as the identity and report limits do).
 */
export function windowLimiter(name: string, points: number, durationS: number, redis?: Redis): RateLimiterAbstract {
  const options = { keyPrefix: `lampstand:${name}`, points, duration: durationS };
  return redis
    ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) })
    : new RateLimiterMemory(options);
}
