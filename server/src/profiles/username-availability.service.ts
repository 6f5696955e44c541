import type { Redis } from 'ioredis';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { DataSource } from 'typeorm';
import { appError, ErrorCode } from '../graphql/errors.js';
import { rateLimitKey } from '../http/address-key.js';
import { MAX_USERNAME_LENGTH, normalUsername, usernameProblem } from '../rules/names.js';
import { windowLimiter } from '../work/rate-limit.js';
import { ProfileRecord } from './profile.entity.js';
import { UsernameAvailability, UsernameUnavailableReason } from './username-availability.types.js';

/**
 * Checks one address may make a minute: a person typing (the web waits for a pause) makes a few
 * dozen at most; walking the list of members' usernames would take years.
 */
export const USERNAME_CHECKS_PER_MINUTE = 30;

/** Longest input looked at: longer ones are invalid whatever they say. */
const MAX_INPUT_LENGTH = MAX_USERNAME_LENGTH * 4;

/** Answers whether a username can be chosen, by the rules the sign-up and a username change apply. */
export class UsernameAvailabilityService {
  private readonly limiter: RateLimiterAbstract;

  constructor(
    private readonly dataSource: DataSource,
    redis?: Redis,
  ) {
    this.limiter = windowLimiter('username-checks', USERNAME_CHECKS_PER_MINUTE, 60, redis);
  }

  /**
   * Whether `input` can be chosen now: the shared username rule (rules/names.ts) first, then
   * whether a member has it. An address over its limit gets `RATE_LIMITED` and nothing is read.
   */
  async check(input: string, clientIp: string): Promise<UsernameAvailability> {
    try {
      await this.limiter.consume(rateLimitKey(clientIp));
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      throw appError(ErrorCode.RATE_LIMITED, 'Too many username checks. Please wait a minute.', {
        retryAfterSeconds: Math.ceil(error.msBeforeNext / 1000),
      });
    }
    const username = normalUsername(input.slice(0, MAX_INPUT_LENGTH));
    const answer = (reason: UsernameUnavailableReason | null): UsernameAvailability =>
      Object.assign(new UsernameAvailability(), { username, available: reason === null, reason });
    const problem = usernameProblem(username);
    if (problem) {
      return answer(
        problem.reason === 'RESERVED_USERNAME' ? UsernameUnavailableReason.RESERVED : UsernameUnavailableReason.INVALID,
      );
    }
    const taken = await this.dataSource.getRepository(ProfileRecord).existsBy({ username });
    return answer(taken ? UsernameUnavailableReason.TAKEN : null);
  }
}
