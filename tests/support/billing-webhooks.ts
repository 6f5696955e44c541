// What the Stripe webhook tests share: their billing app, a count of the identity writes the webhook
// makes, what it may have written for a member, and a checkout paid for but not yet announced.
import { BillingEventRecord, BillingSubscriptionRecord } from '../../server/src/billing/billing.entities.js';
import { UserRecord } from '../../server/src/members/user.entity.js';
import type { BillingTestApp } from './billing.js';
import { checkout, startBillingApp } from './billing.js';
import { faultyFetch } from './faults.js';
import { forTheFile } from './for-the-file.js';
import type { SignedUpMember } from './members.js';
import { signUpMember } from './members.js';

/** Counts, and on demand (`faults.enabled`) fails, the identity writes of app_metadata (admin user updates). */
export function identityWriteCounter(): {
  fetch: typeof fetch;
  faults: ReturnType<typeof faultyFetch>;
  seen: () => number;
} {
  const faults = faultyFetch({
    matches: (method, url) => method === 'PUT' && url.pathname.startsWith('/auth/v1/admin/users/'),
    fault: 'server-error',
  });
  faults.enabled = false;
  let seen = 0;
  const counting: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.method === 'PUT' && new URL(request.url).pathname.startsWith('/auth/v1/admin/users/')) seen++;
    return faults.fetch(request);
  };
  return { fetch: counting, faults, seen: () => seen };
}

/**
 * The billing app of a webhook test file, started before its tests (`forTheFile`), with the identity
 * writes it makes counted, and token limits that many sign-ins stay under.
 */
export function webhookTestApp(): { billing: BillingTestApp; identityWrites: ReturnType<typeof identityWriteCounter> } {
  const identityWrites = identityWriteCounter();
  const billing = forTheFile(() =>
    startBillingApp(
      { AUTH_RATE_LIMIT_TOKEN: '1000', AUTH_RATE_LIMIT_TOKEN_BURST: '1000' },
      { identityFetch: identityWrites.fetch },
    ),
  );
  return { billing, identityWrites };
}

/** What the webhook may have written for a member. */
export async function webhookState(billing: BillingTestApp, member: SignedUpMember): Promise<unknown> {
  const uid = member.member.user.uid;
  const { dataSource } = billing.api;
  const [user, subscriptions, events] = await Promise.all([
    dataSource.getRepository(UserRecord).findOneByOrFail({ uid }),
    dataSource.getRepository(BillingSubscriptionRecord).find({ where: { uid }, order: { id: 'ASC' } }),
    dataSource.getRepository(BillingEventRecord).count(),
  ]);
  return { role: user.stripeRole, subscriptions, events };
}

/** A member mid-checkout, and the signed completion event Stripe would send for their payment. */
export async function paidCheckout(billing: BillingTestApp): Promise<{
  member: SignedUpMember;
  event: Record<string, unknown>;
  subscriptionId: string;
}> {
  const member = await signUpMember(billing.api);
  const customerId = await checkout(billing, member);
  const subscription = billing.stripe.setSubscription({
    customer: customerId,
    price: billing.plusPrice,
    status: 'active',
  });
  const session = billing.stripe.checkoutSessions.at(-1);
  if (!session) throw new Error('no checkout session');
  Object.assign(session, { status: 'complete', subscription: subscription.id });
  return {
    member,
    event: billing.stripe.event('checkout.session.completed', session),
    subscriptionId: subscription.id,
  };
}
