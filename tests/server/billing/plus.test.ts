import { describe, expect, it } from 'vitest';
import { UserRecord } from '../../../server/src/members/user.entity.js';
import { BillingCustomerRecord } from '../../../server/src/billing/billing.entities.js';
import { toPlusSubscription } from '../../../server/src/billing/billing.mappers.js';
import {
  checkout,
  completeCheckout,
  refreshedRole,
  START_CHECKOUT,
  startBillingApp,
  SUBSCRIPTION,
} from '../../support/billing.js';
import { forTheFile } from '../../support/for-the-file.js';
import { firstError, ME, signUpMember } from '../../support/members.js';
import type { MemberData } from '../../support/members.js';
import { deliver, signEvent } from '../../support/stripe-fake.js';

const billing = forTheFile(() =>
  startBillingApp({ AUTH_RATE_LIMIT_TOKEN: '1000', AUTH_RATE_LIMIT_TOKEN_BURST: '1000' }),
);

const PLANS = '{ plans { priceId name description amount currency interval intervalCount } }';
const UPDATE = 'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { theme button } }';
const PUBLIC = 'query ($username: String!) { profile(username: $username) { plus appearance { theme button } } }';
const DAY_MS = 24 * 60 * 60 * 1000;

async function plan(token: string): Promise<string | undefined> {
  const response = await billing.api.graphql<{ me: MemberData }>(ME, {}, { token });
  return response.data?.me.plan;
}

describe('the whole path to Plus and back', () => {
  it('goes free → checkout → completion → Plus claim and looks → cancellation → free defaults, choices kept', async () => {
    const { api, stripe } = billing;
    const member = await signUpMember(api);
    const uid = member.member.user.uid;
    const token = (): string => member.session.accessToken;
    expect(await plan(token())).toBe('free');

    const plans = await api.graphql<{ plans: unknown[] }>(PLANS);
    expect(plans.data?.plans).toEqual([
      {
        priceId: billing.plusPrice,
        name: 'Lampstand Plus',
        description: 'Lampstand Plus, for testing',
        amount: 499,
        currency: 'usd',
        interval: 'month',
        intervalCount: 1,
      },
    ]);

    const refused = await api.graphql(UPDATE, { input: { theme: 'gardenTheme' } }, { token: token() });
    expect(firstError(refused).code).toBe('PLUS_REQUIRED');

    const started = await api.graphql<{ startCheckout: { url: string } }>(
      START_CHECKOUT,
      { priceId: billing.plusPrice },
      { token: token() },
    );
    expect(started.errors).toBeUndefined();
    const session = stripe.checkoutSessions.at(-1);
    expect(started.data?.startCheckout.url).toBe(session?.url);
    const customerId = (await api.dataSource.getRepository(BillingCustomerRecord).findOneByOrFail({ uid })).customerId;
    expect(session).toMatchObject({
      mode: 'subscription',
      customer: customerId,
      price: billing.plusPrice,
      client_reference_id: uid,
      metadata: { lampstand_uid: uid },
      subscription_metadata: { lampstand_uid: uid },
      success_url: `${api.url}/plus?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${api.url}/plus?checkout=cancelled`,
    });
    expect(stripe.customers.get(customerId)).toMatchObject({
      email: member.email,
      metadata: { lampstand_uid: uid },
    });

    // Stripe takes the payment and tells us.
    const subscription = stripe.setSubscription({ customer: customerId, price: billing.plusPrice, status: 'active' });
    Object.assign(session ?? {}, { status: 'complete', subscription: subscription.id });
    const completed = await deliver(
      api,
      signEvent(stripe.event('checkout.session.completed', session ?? subscription)),
    );
    expect(completed).toEqual({ status: 200, body: { received: true, duplicate: false } });

    expect(await refreshedRole(api, member)).toBe('plus');
    expect(await plan(token())).toBe('plus');
    const standing = await api.graphql(SUBSCRIPTION, {}, { token: token() });
    expect(standing.data).toMatchObject({
      subscription: {
        plan: 'plus',
        granted: false,
        status: 'active',
        priceId: billing.plusPrice,
        cancelAtPeriodEnd: false,
        graceEndsAt: null,
        canManageBilling: true,
      },
    });

    const chosen = await api.graphql(
      UPDATE,
      { input: { theme: 'gardenTheme', button: 'goldButton' } },
      { token: token() },
    );
    expect(chosen.errors).toBeUndefined();
    const username = member.member.profile.username;
    expect((await api.graphql(PUBLIC, { username })).data).toEqual({
      profile: { plus: true, appearance: { theme: 'gardenTheme', button: 'goldButton' } },
    });

    // The member cancels in the portal; Stripe ends the subscription.
    Object.assign(subscription, { status: 'canceled' });
    const deleted = await deliver(api, signEvent(stripe.event('customer.subscription.deleted', subscription)));
    expect(deleted.status).toBe(200);

    expect(await refreshedRole(api, member)).toBeUndefined();
    expect(await plan(token())).toBe('free');
    expect((await api.graphql(PUBLIC, { username })).data).toEqual({
      profile: { plus: false, appearance: { theme: 'lightTheme', button: 'normalButton' } },
    });
    const own = await api.graphql<{ me: MemberData }>(ME, {}, { token: token() });
    expect(own.data?.me.profile).toMatchObject({ theme: 'gardenTheme', button: 'goldButton' });
  });
});

describe('checkout and the portal', () => {
  it('creates one Stripe customer for concurrent startCheckout calls', async () => {
    const member = await signUpMember(billing.api);
    const responses = await Promise.all(
      Array.from({ length: 6 }, () =>
        billing.api.graphql(START_CHECKOUT, { priceId: billing.plusPrice }, { token: member.session.accessToken }),
      ),
    );
    expect(responses.map((response) => response.errors)).toEqual(responses.map(() => undefined));
    const uid = member.member.user.uid;
    const links = await billing.api.dataSource.getRepository(BillingCustomerRecord).findBy({ uid });
    expect(links).toHaveLength(1);
    const atStripe = [...billing.stripe.customers.values()].filter(
      (customer) => (customer.metadata as { lampstand_uid: string }).lampstand_uid === uid,
    );
    expect(atStripe.map((customer) => customer.id)).toEqual([links[0]?.customerId]);
  });

  it('finds the customer Stripe already holds for the member when its link was never stored', async () => {
    const member = await signUpMember(billing.api);
    const uid = member.member.user.uid;
    // An earlier attempt, more than a day ago (its idempotency key gone), made the customer and
    // then failed before the link was written.
    const earlier = {
      id: 'cus_made_earlier',
      object: 'customer',
      email: 'x@example.org',
      metadata: { lampstand_uid: uid },
    };
    billing.stripe.customers.set(earlier.id, earlier);
    const response = await billing.api.graphql(
      START_CHECKOUT,
      { priceId: billing.plusPrice },
      { token: member.session.accessToken },
    );
    expect(response.errors).toBeUndefined();
    const links = await billing.api.dataSource.getRepository(BillingCustomerRecord).findBy({ uid });
    expect(links.map((link) => link.customerId)).toEqual([earlier.id]);
    const atStripe = [...billing.stripe.customers.values()].filter(
      (customer) => (customer.metadata as { lampstand_uid: string }).lampstand_uid === uid,
    );
    expect(atStripe).toHaveLength(1);
  });

  it('expires the earlier open checkout when the member starts another, so that only one can be paid', async () => {
    const member = await signUpMember(billing.api);
    await checkout(billing, member);
    const first = billing.stripe.checkoutSessions.at(-1);
    await checkout(billing, member);
    const second = billing.stripe.checkoutSessions.at(-1);
    if (!first || !second || first === second) throw new Error('expected two checkout sessions');
    expect(first.status).toBe('expired');
    expect(() => billing.stripe.payCheckoutSession(first)).toThrow(/expired/);
    expect(second.status).toBe('open');
    expect(billing.stripe.payCheckoutSession(second).status).toBe('active');
  });

  it('refuses a price that is not on sale for Plus', async () => {
    const member = await signUpMember(billing.api);
    const other = billing.stripe.addProduct({ name: 'Stickers', role: null });
    const stickers = billing.stripe.addPrice({ product: other.id, unitAmount: 100 });
    for (const priceId of [stickers.id, 'price_unknown', 'not a price id']) {
      const response = await billing.api.graphql(START_CHECKOUT, { priceId }, { token: member.session.accessToken });
      expect(firstError(response)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'priceId' });
    }
  });

  it('refuses a second checkout while the member pays for Plus', async () => {
    const member = await signUpMember(billing.api);
    await completeCheckout(billing, member);
    const again = await billing.api.graphql(
      START_CHECKOUT,
      { priceId: billing.plusPrice },
      { token: member.session.accessToken },
    );
    expect(firstError(again).code).toBe('ALREADY_SUBSCRIBED');
  });

  it("opens the billing portal for the member's customer, returning to /plus", async () => {
    const member = await signUpMember(billing.api);
    const customerId = await checkout(billing, member);
    const response = await billing.api.graphql<{ openBillingPortal: { url: string } }>(
      'mutation { openBillingPortal { url } }',
      {},
      { token: member.session.accessToken },
    );
    const session = billing.stripe.portalSessions.at(-1);
    expect(response.data?.openBillingPortal.url).toBe(session?.url);
    expect(session).toMatchObject({ customer: customerId, return_url: `${billing.api.url}/plus` });
  });
});

describe('a failed payment', () => {
  it('keeps Plus through the grace period, and ends it after', async () => {
    const { api, stripe } = billing;
    const member = await signUpMember(api);
    const { subscriptionId, customerId } = await completeCheckout(billing, member);
    expect(await refreshedRole(api, member)).toBe('plus');

    const subscription = stripe.setSubscription({
      id: subscriptionId,
      customer: customerId,
      price: billing.plusPrice,
      status: 'past_due',
    });
    const invoice = {
      id: 'in_failed',
      object: 'invoice',
      customer: customerId,
      parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id } },
    };
    expect((await deliver(api, signEvent(stripe.event('invoice.payment_failed', invoice)))).status).toBe(200);

    expect(await plan(member.session.accessToken)).toBe('plus');
    const standing = await api.graphql<{ subscription: { status: string; graceEndsAt: string } }>(
      SUBSCRIPTION,
      {},
      { token: member.session.accessToken },
    );
    expect(standing.data?.subscription.status).toBe('past_due');
    const graceEnds = Date.parse(standing.data?.subscription.graceEndsAt ?? '');
    expect(Math.abs(graceEnds - (Date.now() + 7 * DAY_MS))).toBeLessThan(60_000);

    await api.app.billing.runMaintenance(new Date(Date.now() + 6 * DAY_MS));
    expect(await plan(member.session.accessToken)).toBe('plus');
    // Past the grace period, before the maintenance pass ends it: the plan is still the one me.plan shows.
    const actor = {
      id: member.member.user.uid,
      email: member.email,
      sessionId: null,
      aal: 'aal1' as const,
      secondFactorPending: false,
      emailLinkAt: null,
      stripeRole: null,
      accessToken: '',
    };
    const late = toPlusSubscription(await api.app.billing.standing(actor, new Date(Date.now() + 8 * DAY_MS)));
    expect(late).toMatchObject({ plan: 'plus', status: 'past_due', graceEndsAt: null });
    await api.app.billing.runMaintenance(new Date(Date.now() + 8 * DAY_MS));
    expect(await plan(member.session.accessToken)).toBe('free');
    expect(await refreshedRole(api, member)).toBeUndefined();
  });
});

describe('account deletion', () => {
  it("expires the member's open checkouts, so that paying on one can no longer start a subscription", async () => {
    const member = await signUpMember(billing.api);
    await checkout(billing, member);
    const session = billing.stripe.checkoutSessions.at(-1);
    if (!session) throw new Error('no checkout session');
    const response = await billing.api.graphql(
      'mutation ($password: String!) { deleteAccount(password: $password) }',
      { password: member.password },
      { token: member.session.accessToken },
    );
    expect(response.errors).toBeUndefined();
    expect(session.status).toBe('expired');
    expect(billing.stripe.requests).toContain(`POST /v1/checkout/sessions/${session.id}/expire`);
    expect(() => billing.stripe.payCheckoutSession(session)).toThrow(/expired/);
  });

  it("cancels the member's subscriptions at Stripe and removes the customer link", async () => {
    const member = await signUpMember(billing.api);
    const { subscriptionId } = await completeCheckout(billing, member);
    const response = await billing.api.graphql(
      'mutation ($password: String!) { deleteAccount(password: $password) }',
      { password: member.password },
      { token: member.session.accessToken },
    );
    expect(response.errors).toBeUndefined();
    expect(billing.stripe.subscriptions.get(subscriptionId)?.status).toBe('canceled');
    const uid = member.member.user.uid;
    expect(await billing.api.dataSource.getRepository(BillingCustomerRecord).existsBy({ uid })).toBe(false);
    expect(await billing.api.dataSource.getRepository(UserRecord).existsBy({ uid })).toBe(false);

    // Stripe's cancellation event arrives for a customer we no longer know: taken, no effect.
    const subscription = billing.stripe.subscriptions.get(subscriptionId);
    if (!subscription) throw new Error('subscription missing');
    const late = await deliver(
      billing.api,
      signEvent(billing.stripe.event('customer.subscription.deleted', subscription)),
    );
    expect(late.status).toBe(200);
  });
});
