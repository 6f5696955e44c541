import { expect } from 'vitest';
import type { AppDependencies } from '../../server/src/app/app.js';
import { BillingCustomerRecord } from '../../server/src/billing/billing.entities.js';
import type { Env } from '../../server/src/config.js';
import type { TestApp } from './app.js';
import { startTestApp } from './app.js';
import { decodeClaims } from './identity.js';
import type { SignedUpMember } from './members.js';
import type { FakeStripe } from './stripe-fake.js';
import { deliver, signEvent, startFakeStripe } from './stripe-fake.js';

export interface BillingTestApp {
  api: TestApp;
  stripe: FakeStripe;
  /** The Plus product (role `plus`) and its monthly price, known to the app. */
  plusPrice: string;
  plusProduct: string;
  close(): Promise<void>;
}

/**
 * A test app with billing pointed at a fresh fake Stripe that sells Plus monthly, the catalog
 * already read. Background work is off, so that tests decide when maintenance runs.
 */
export async function startBillingApp(env: Env = {}, dependencies: AppDependencies = {}): Promise<BillingTestApp> {
  const stripe = await startFakeStripe();
  const product = stripe.addProduct({ name: 'Lampstand Plus' });
  const price = stripe.addPrice({ product: product.id, unitAmount: 499 });
  const api = await startTestApp({ ...stripe.env, ...env }, { background: false, ...dependencies });
  await api.app.billing.syncCatalog();
  return {
    api,
    stripe,
    plusPrice: price.id,
    plusProduct: product.id,
    async close() {
      await api.close();
      await stripe.close();
    },
  };
}

export const START_CHECKOUT = 'mutation ($priceId: ID!) { startCheckout(priceId: $priceId) { url } }';
export const SUBSCRIPTION = `{ subscription {
  plan granted status priceId currentPeriodEnd cancelAtPeriodEnd graceEndsAt canManageBilling } }`;
const REFRESH =
  'mutation ($token: String!) { refreshSession(refreshToken: $token) { session { accessToken refreshToken } } }';

/** Starts checkout through the API and returns the member's Stripe customer id. */
export async function checkout(billing: BillingTestApp, member: SignedUpMember): Promise<string> {
  const response = await billing.api.graphql(
    START_CHECKOUT,
    { priceId: billing.plusPrice },
    { token: member.session.accessToken },
  );
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  const link = await billing.api.dataSource
    .getRepository(BillingCustomerRecord)
    .findOneByOrFail({ uid: member.member.user.uid });
  return link.customerId;
}

/** What Stripe does when the member pays: an active subscription and the completed-session event. */
export async function completeCheckout(
  billing: BillingTestApp,
  member: SignedUpMember,
): Promise<{ subscriptionId: string; customerId: string }> {
  const customerId = await checkout(billing, member);
  const session = billing.stripe.checkoutSessions.at(-1);
  if (!session) throw new Error('no checkout session');
  const subscription = billing.stripe.payCheckoutSession(session);
  const response = await deliver(billing.api, signEvent(billing.stripe.event('checkout.session.completed', session)));
  expect(response.status).toBe(200);
  return { subscriptionId: subscription.id, customerId };
}

/** Refreshes the member's session (as the web app does after checkout) and returns the new token's stripeRole. */
export async function refreshedRole(api: TestApp, member: SignedUpMember): Promise<unknown> {
  const response = await api.graphql<{ refreshSession: { session: { accessToken: string; refreshToken: string } } }>(
    REFRESH,
    { token: member.session.refreshToken },
  );
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  const session = response.data?.refreshSession.session;
  if (!session) throw new Error('refresh returned no session');
  Object.assign(member.session, session);
  const claims = decodeClaims(session.accessToken);
  const appMetadata = claims.app_metadata as Record<string, unknown> | undefined;
  return appMetadata?.stripeRole;
}
