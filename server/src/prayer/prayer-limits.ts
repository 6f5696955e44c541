import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { rateLimited } from '../graphql/errors.js';
import { rateLimitKey } from '../http/address-key.js';
import { noteOf } from '../http/rate-limit-headers.js';

/**
 * How many per hour: one address may send a few requests; one page may receive more, from everyone
 * together; one member may reply to some (each reply is a mail from the app to a stranger's address).
 */
export interface PrayerLimits {
  perAddress: number;
  perPage: number;
  repliesPerMember: number;
}

export const DEFAULT_PRAYER_LIMITS: PrayerLimits = { perAddress: 5, perPage: 30, repliesPerMember: 20 };

function limiter(keyPrefix: string, points: number, redis: Redis | undefined): RateLimiterAbstract {
  const options = { keyPrefix, points, duration: 3600 };
  // With Redis, every instance counts together; its own count stands in while Redis is away.
  return redis
    ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) })
    : new RateLimiterMemory(options);
}

/** The hourly limits on sending prayer requests (per sender's address and per page) and on replies (per member). */
export class PrayerSendLimits {
  private readonly byAddress: RateLimiterAbstract;
  private readonly byPage: RateLimiterAbstract;
  private readonly repliesByMember: RateLimiterAbstract;

  constructor(limits: PrayerLimits, redis: Redis | undefined) {
    this.byAddress = limiter('lampstand:prayer:address', limits.perAddress, redis);
    this.byPage = limiter('lampstand:prayer:page', limits.perPage, redis);
    this.repliesByMember = limiter('lampstand:prayer:replies', limits.repliesPerMember, redis);
  }

  /** Counts one reply by the member `uid`; RATE_LIMITED when they are over. */
  async takeReply(uid: string): Promise<void> {
    await consume(this.repliesByMember, uid, 'You have sent many replies in the last hour.');
  }

  /** Counts one request from `clientIp` to the page of `uid`; RATE_LIMITED when either is over. */
  async take(clientIp: string, uid: string): Promise<void> {
    await consume(this.byAddress, rateLimitKey(clientIp), 'You have sent several prayer requests already.');
    await consume(this.byPage, uid, 'This page has received many prayer requests in the last hour.');
  }
}

async function consume(limit: RateLimiterAbstract, key: string, words: string): Promise<void> {
  try {
    await limit.consume(key);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    const note = noteOf(limit, error);
    throw rateLimited(`${words} Please try again later.`, note, { retryAfterSeconds: note.retryAfterSeconds });
  }
}
