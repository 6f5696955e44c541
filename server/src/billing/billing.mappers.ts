import { Plan } from '../members/plan.types.js';
import type { PlanOffer } from './checkout.service.js';
import type { PlusStanding } from './plus-role.service.js';
import { BillingInterval, PlusPlan, PlusSubscription, SubscriptionStatus } from './billing.types.js';

const STATUSES = new Set<string>(Object.values(SubscriptionStatus));
const INTERVALS = new Set<string>(Object.values(BillingInterval));

export function toPlusPlan({ price, product }: PlanOffer): PlusPlan {
  return Object.assign(new PlusPlan(), {
    priceId: price.id,
    name: product.name,
    description: product.description,
    amount: price.unitAmount,
    currency: price.currency,
    interval: INTERVALS.has(price.interval ?? '') ? price.interval : BillingInterval.month,
    intervalCount: price.intervalCount ?? 1,
  });
}

export function toPlusSubscription({ plus, entitlement, subscription, hasCustomer }: PlusStanding): PlusSubscription {
  return Object.assign(new PlusSubscription(), {
    plan: plus ? Plan.plus : Plan.free,
    granted: entitlement.granted,
    // A status newer than this code knows is shown as none rather than guessed.
    status: subscription && STATUSES.has(subscription.status) ? subscription.status : null,
    priceId: subscription?.priceId ?? null,
    currentPeriodEnd: subscription?.currentPeriodEnd ?? null,
    cancelAtPeriodEnd: subscription?.cancelAtPeriodEnd ?? false,
    graceEndsAt: entitlement.graceEndsAt,
    canManageBilling: hasCustomer,
  });
}
