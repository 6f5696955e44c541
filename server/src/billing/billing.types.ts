import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Plan } from '../members/plan.types.js';

export enum BillingInterval {
  day = 'day',
  week = 'week',
  month = 'month',
  year = 'year',
}

registerEnumType(BillingInterval, {
  name: 'BillingInterval',
  description: 'How often a plan bills.',
  valuesConfig: {
    day: { description: 'Daily.' },
    week: { description: 'Weekly.' },
    month: { description: 'Monthly.' },
    year: { description: 'Yearly.' },
  },
});

export enum SubscriptionStatus {
  active = 'active',
  trialing = 'trialing',
  past_due = 'past_due',
  unpaid = 'unpaid',
  paused = 'paused',
  incomplete = 'incomplete',
  incomplete_expired = 'incomplete_expired',
  canceled = 'canceled',
}

registerEnumType(SubscriptionStatus, {
  name: 'SubscriptionStatus',
  description: "A Stripe subscription's status.",
  valuesConfig: {
    active: { description: 'Paid and running.' },
    trialing: { description: 'In a free trial.' },
    past_due: { description: 'A payment failed; Stripe retries it. Plus stays until `graceEndsAt`.' },
    unpaid: { description: 'Payments failed and Stripe stopped retrying; no Plus.' },
    paused: { description: 'Paused; no Plus.' },
    incomplete: { description: 'The first payment is not done yet; no Plus.' },
    incomplete_expired: { description: 'The first payment never completed; no Plus.' },
    canceled: { description: 'Ended; no Plus.' },
  },
});

@ObjectType({ description: 'A Plus price on sale. Pass `priceId` to `startCheckout`.' })
export class PlusPlan {
  @Field(() => ID, { description: "Stripe's price id (`price_…`)." })
  priceId!: string;

  @Field(() => String, { description: "The product's name, e.g. Lampstand Plus." })
  name!: string;

  @Field(() => String, { nullable: true, description: "The product's description." })
  description!: string | null;

  @Field(() => Int, {
    nullable: true,
    description: "The amount per interval in the currency's smallest unit (cents); null if it varies.",
  })
  amount!: number | null;

  @Field(() => String, { description: 'ISO currency code, lowercase (`usd`, `eur`).' })
  currency!: string;

  @Field(() => BillingInterval, { description: 'How often it bills.' })
  interval!: BillingInterval;

  @Field(() => Int, { description: 'Bills every `intervalCount` intervals (1 for monthly, 3 for quarterly).' })
  intervalCount!: number;
}

@ObjectType({ description: "The signed-in member's Plus: the verdict, and the subscription behind it." })
export class PlusSubscription {
  @Field(() => Plan, { description: '`plus` while Plus is on, whatever the reason (same as `me.plan`).' })
  plan!: Plan;

  @Field(() => Boolean, { description: 'Plus was granted by an operator rather than bought.' })
  granted!: boolean;

  @Field(() => SubscriptionStatus, {
    nullable: true,
    description: 'The status of the subscription that matters most; null without a subscription.',
  })
  status!: SubscriptionStatus | null;

  @Field(() => ID, { nullable: true, description: "That subscription's price." })
  priceId!: string | null;

  @Field(() => Date, { nullable: true, description: 'When the paid period ends (renews, or ends if cancelled).' })
  currentPeriodEnd!: Date | null;

  @Field(() => Boolean, { description: 'The subscription ends at `currentPeriodEnd` instead of renewing.' })
  cancelAtPeriodEnd!: boolean;

  @Field(() => Date, {
    nullable: true,
    description: 'After a failed payment (`past_due`): Plus lasts until then unless the payment goes through.',
  })
  graceEndsAt!: Date | null;

  @Field(() => Boolean, {
    description: 'The member has a Stripe customer, so `openBillingPortal` has something to show.',
  })
  canManageBilling!: boolean;
}

@ObjectType({ description: 'A page at Stripe to send the member to (open `url` in the same tab).' })
export class BillingRedirect {
  @Field(() => String, { description: 'The Stripe-hosted page. It works once and expires (checkout: 24 hours).' })
  url!: string;
}
