import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../../config.js';
import { rateLimitKey } from '../../http/address-key.js';
import { noteOf } from '../../http/rate-limit-headers.js';
import type { RateLimitNote } from '../../http/rate-limit-headers.js';
import { tooManyRequests } from './errors.js';

/** The limiters of the identity API, each keyed by client address except the global `email` one. */
export interface IdentityLimits {
  token: RateLimiterAbstract;
  signup: RateLimiterAbstract;
  recover: RateLimiterAbstract;
  /** `/otp` and `/resend`. */
  otp: RateLimiterAbstract;
  user: RateLimiterAbstract;
  verify: RateLimiterAbstract;
  factorChallenge: RateLimiterAbstract;
  factorVerify: RateLimiterAbstract;
  email: RateLimiterAbstract;
  /** Tries at one factor's codes, by factor id, whatever the address: WRONG_CODES_PER_FACTOR. */
  factorCodes: RateLimiterAbstract;
  /** Tries at an account's secrets (codes of all its factors, its current password), by account. */
  accountSecrets: RateLimiterAbstract;
}

/** Wrong codes one factor takes in a window before it is locked for the rest of the window. */
export const WRONG_CODES_PER_FACTOR = 5;
/** Wrong codes (or current passwords) one account takes in a window, over all its factors. */
export const WRONG_SECRETS_PER_ACCOUNT = 10;
/** The window of those counts: a locked factor opens again at most this long after its first try. */
export const SECRET_ATTEMPTS_WINDOW_S = 15 * 60;
/** What a locked factor or account is told: try again once the window has surely passed. */
export const LOCKED: RateLimitNote = { retryAfterSeconds: SECRET_ATTEMPTS_WINDOW_S };

const FIVE_MINUTES_S = 300;
const HOUR_S = 3600;
const MINUTE_S = 60;

/**
 * Builds the limiters. Supabase Auth's token buckets (`events` per 5 min, `burst` at once) become
 * fixed windows of `burst` requests per `burst × 5 min / events`: the same long-run rate and the
 * same largest burst. With REDIS_URL the counts are shared by every server instance.
 */
export function createIdentityLimits(settings: Config['auth'], redis: Redis | undefined): IdentityLimits {
  const limiter = (name: string, points: number, duration: number): RateLimiterAbstract => {
    const options = { keyPrefix: `lampstand:auth:${name}`, points, duration: Math.max(1, Math.round(duration)) };
    if (!redis) return new RateLimiterMemory(options);
    return new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) });
  };
  const { token, tokenBurst, otp, verify, emailSent } = settings.rateLimits;
  const otpBurst = Math.min(otp, 30);
  return {
    token: limiter('token', tokenBurst, (tokenBurst * FIVE_MINUTES_S) / token),
    signup: limiter('signup', otpBurst, (otpBurst * FIVE_MINUTES_S) / otp),
    recover: limiter('recover', otpBurst, (otpBurst * FIVE_MINUTES_S) / otp),
    otp: limiter('otp', otpBurst, (otpBurst * FIVE_MINUTES_S) / otp),
    user: limiter('user', otpBurst, (otpBurst * FIVE_MINUTES_S) / otp),
    verify: limiter('verify', Math.min(verify, 30), (Math.min(verify, 30) * FIVE_MINUTES_S) / verify),
    // Supabase Auth's MFA limit: challenges and verifications, each so many per minute.
    factorChallenge: limiter('factor-challenge', settings.mfa.rateLimitChallengeAndVerify, MINUTE_S),
    factorVerify: limiter('factor-verify', settings.mfa.rateLimitChallengeAndVerify, MINUTE_S),
    email: limiter('email', emailSent, HOUR_S),
    factorCodes: limiter('factor-codes', WRONG_CODES_PER_FACTOR, SECRET_ATTEMPTS_WINDOW_S),
    accountSecrets: limiter('account-secrets', WRONG_SECRETS_PER_ACCOUNT, SECRET_ATTEMPTS_WINDOW_S),
  };
}

/** Takes one point for `key`; false when the limit is reached. */
export async function takePoint(limiter: RateLimiterAbstract, key: string): Promise<boolean> {
  return (await refusalOf(limiter, key)) === null;
}

/** Takes one point for `key`: null when taken, or when to try again when the limit is reached. */
export async function refusalOf(limiter: RateLimiterAbstract, key: string): Promise<RateLimitNote | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (error) {
    if (error instanceof RateLimiterRes) return noteOf(limiter, error);
    throw error;
  }
}

/**
 * Counts a try at a secret (a code, a current password) under `key` before it is compared, so that
 * tries sent at once are counted too; false when the key has no tries left. A right one is given
 * back with `giveBackAttempt`, so that only wrong ones add up.
 */
export const takeAttempt = takePoint;

/** Gives back the try a right secret took. */
export async function giveBackAttempt(limiter: RateLimiterAbstract, key: string): Promise<void> {
  await limiter.reward(key, 1);
}

/**
 * The address a request is limited by: Fastify's `request.ip` (which believes X-Forwarded-For only
 * from TRUST_PROXY), or the `Sb-Forwarded-For` address when the request proves, with the
 * service-role key as `apikey`, that it comes from a trusted server acting for that client.
 */
export async function clientAddress(
  request: FastifyRequest,
  isServiceKey: (apiKey: string) => Promise<boolean>,
): Promise<string> {
  const forwarded = request.headers['sb-forwarded-for'];
  const apiKey = request.headers.apikey;
  if (typeof forwarded === 'string' && typeof apiKey === 'string') {
    const first = forwarded.split(',')[0]?.trim() ?? '';
    if (isIP(first) !== 0 && (await isServiceKey(apiKey))) return first;
  }
  return request.ip;
}

/**
 * Answers 429 `over_request_rate_limit` once the client's address is over the limiter's limit. An
 * IPv6 client is counted by its /64 (see `rateLimitKey`).
 */
export async function limitByAddress(limiter: RateLimiterAbstract, address: string): Promise<void> {
  const refusal = await refusalOf(limiter, rateLimitKey(address));
  if (refusal) throw tooManyRequests('over_request_rate_limit', 'Request rate limit reached', refusal);
}
