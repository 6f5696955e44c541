import type { Redis } from 'ioredis';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config.js';
import { rateLimited } from '../graphql/errors.js';
import { rateLimitKey } from '../http/address-key.js';
import { noteOf } from '../http/rate-limit-headers.js';
import type { CallerInfo } from '../identity/identity.client.js';
import { windowLimiter } from '../work/rate-limit.js';

/**
 * What a sign-in mutation asks of the identity service, by Supabase Auth's limit it falls under:
 * token grants (password sign-in, refresh), sign-ups, recovery mail, emailed sign-in links, and
 * verifications of an emailed link or code.
 */
export type SignInAction = 'token' | 'signup' | 'recover' | 'otp' | 'verify';

const FIVE_MINUTES_S = 300;

/**
 * The API's own per-address limits on its sign-in mutations, counted before the identity service
 * is asked, in embedded and hosted mode alike: a hosted Supabase Auth counts the app's calls by
 * the address it names only when told to (GOTRUE_SECURITY_SB_FORWARDED_FOR_ENABLED), else as one
 * client, the app itself. The limits are the embedded service's (AUTH_RATE_LIMIT_*), so embedded
 * mode refuses nothing it did not refuse already; IPv6 clients are counted by their /64.
 */
export class SignInLimits {
  private constructor(private readonly limiters: Record<SignInAction, RateLimiterAbstract>) {}

  /** Supabase Auth's token buckets as fixed windows of the same burst and long-run rate (as the embedded service counts). */
  static create(settings: Config['auth']['rateLimits'], redis?: Redis): SignInLimits {
    const window = (name: string, events: number, burst: number): RateLimiterAbstract =>
      windowLimiter(`sign-in:${name}`, burst, Math.max(1, Math.round((burst * FIVE_MINUTES_S) / events)), redis);
    const otpBurst = Math.min(settings.otp, 30);
    return new SignInLimits({
      token: window('token', settings.token, settings.tokenBurst),
      signup: window('signup', settings.otp, otpBurst),
      recover: window('recover', settings.otp, otpBurst),
      otp: window('otp', settings.otp, otpBurst),
      verify: window('verify', settings.verify, Math.min(settings.verify, 30)),
    });
  }

  /**
   * Counts one `action` for the caller's address; `RATE_LIMITED` (with `retryAfter` and the window) once the
   * address is over its limit. A call without an address (a tool, a test) is not counted.
   */
  async take(action: SignInAction, caller: CallerInfo): Promise<void> {
    if (caller.clientIp === undefined) return;
    try {
      await this.limiters[action].consume(rateLimitKey(caller.clientIp));
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      throw rateLimited(
        'Too many tries from your address: wait a few minutes, then try again.',
        noteOf(this.limiters[action], error),
      );
    }
  }
}
