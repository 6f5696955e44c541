import { PLUS_ROLE } from '../rules/plan.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Statuses in which a subscription grants its role outright. */
export const GRANTING_STATUSES: ReadonlySet<string> = new Set(['active', 'trialing']);
/** Statuses in which a member already pays for a subscription (a second checkout would bill twice). */
export const SUBSCRIBED_STATUSES: ReadonlySet<string> = new Set([...GRANTING_STATUSES, 'past_due']);
/** Statuses from which a subscription can never grant anything again. */
export const ENDED_STATUSES: ReadonlySet<string> = new Set(['canceled', 'incomplete_expired']);

/** What the Plus rule needs to know of one subscription. */
export interface SubscriptionStanding {
  status: string;
  /** The role of the price's product (`plus` for Lampstand Plus). */
  role: string | null;
  /** When the subscription was first seen `past_due`. */
  pastDueSince: Date | null;
}

export interface Entitlement {
  /** The role to carry in `users.stripe_role` and the token's `stripeRole` claim: `plus` or null. */
  role: typeof PLUS_ROLE | null;
  /** Plus granted by an operator rather than bought. */
  granted: boolean;
  /** While Plus rests only on a `past_due` subscription: when its grace period ends. */
  graceEndsAt: Date | null;
}

/** When a `past_due` subscription stops granting its role. */
export function graceEnd(pastDueSince: Date, graceDays: number): Date {
  return new Date(pastDueSince.getTime() + graceDays * DAY_MS);
}

/**
 * The Plus rule: a member is Plus while an operator grants it, or while any subscription is
 * `active` or `trialing` on a product whose role is `plus`; a `past_due` one keeps Plus until
 * `graceDays` after it fell due, so that one failed card payment does not take Plus away.
 */
export function entitlementOf(
  input: { granted: boolean; subscriptions: readonly SubscriptionStanding[] },
  now: Date,
  graceDays: number,
): Entitlement {
  const plusSubscriptions = input.subscriptions.filter((subscription) => subscription.role === PLUS_ROLE);
  if (input.granted || plusSubscriptions.some((subscription) => GRANTING_STATUSES.has(subscription.status))) {
    return { role: PLUS_ROLE, granted: input.granted, graceEndsAt: null };
  }
  const graceEnds = plusSubscriptions
    .flatMap(({ status, pastDueSince }) =>
      status === 'past_due' && pastDueSince !== null ? [graceEnd(pastDueSince, graceDays)] : [],
    )
    .filter((end) => end.getTime() > now.getTime())
    .sort((a, b) => b.getTime() - a.getTime());
  const latest = graceEnds[0];
  return latest
    ? { role: PLUS_ROLE, granted: false, graceEndsAt: latest }
    : { role: null, granted: false, graceEndsAt: null };
}
