import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';

/** What a refused caller is told about the limit it reached. */
export interface RateLimitNote {
  /** Seconds until a request may succeed again (at least 1). */
  retryAfterSeconds: number;
  /** Requests allowed per window, when the limit is a counted window. */
  limit?: number;
  /** The window's length in seconds, with `limit`. */
  windowSeconds?: number;
}

/** A note from rate-limiter-flexible's refusal, for the limiter that gave it. */
export function noteOf(limiter: RateLimiterAbstract, refusal: RateLimiterRes): RateLimitNote {
  return {
    retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)),
    limit: limiter.points,
    windowSeconds: limiter.duration,
  };
}

/**
 * The headers of a refused request: `Retry-After`, and the IETF draft's `RateLimit-Limit`,
 * `RateLimit-Remaining` (0: refused), `RateLimit-Reset` (seconds) and `RateLimit-Policy`
 * (`<limit>;w=<window>`) when the limit is a counted window.
 */
export function rateLimitHeaders(note: RateLimitNote): [string, string][] {
  const seconds = String(Math.max(1, Math.ceil(note.retryAfterSeconds)));
  const headers: [string, string][] = [['retry-after', seconds]];
  if (note.limit !== undefined) {
    headers.push(['ratelimit-limit', String(note.limit)], ['ratelimit-remaining', '0'], ['ratelimit-reset', seconds]);
    if (note.windowSeconds !== undefined) {
      headers.push(['ratelimit-policy', `${String(note.limit)};w=${String(note.windowSeconds)}`]);
    }
  }
  return headers;
}

/** The note a GraphQL error's extensions carry (`retryAfter`, and `rateLimit` with limit and window). */
export function noteFromExtensions(
  extensions: Readonly<Record<string, unknown>> | undefined,
): RateLimitNote | undefined {
  const retryAfter = extensions?.retryAfter;
  if (typeof retryAfter !== 'number' || !Number.isFinite(retryAfter)) return undefined;
  const policy = extensions?.rateLimit;
  const limit =
    typeof policy === 'object' && policy !== null && 'limit' in policy && typeof policy.limit === 'number'
      ? policy.limit
      : undefined;
  const windowSeconds =
    typeof policy === 'object' && policy !== null && 'window' in policy && typeof policy.window === 'number'
      ? policy.window
      : undefined;
  return { retryAfterSeconds: retryAfter, limit, windowSeconds };
}
