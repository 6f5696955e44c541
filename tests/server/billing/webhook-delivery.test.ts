import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRecord } from '../../../server/src/members/user.entity.js';
import {
  BillingCustomerRecord,
  BillingEventRecord,
  BillingPendingClaimRecord,
  BillingSubscriptionRecord,
} from '../../../server/src/billing/billing.entities.js';
import type { BillingTestApp } from '../../support/billing.js';
import { checkout, completeCheckout, refreshedRole, startBillingApp } from '../../support/billing.js';
import { failInserts, faultyFetch } from '../../support/faults.js';
import type { SignedUpMember } from '../../support/members.js';
import { signUpMember } from '../../support/members.js';
import { deliver, signEvent } from '../../support/stripe-fake.js';

/** Counts, and on demand fails, the identity writes of app_metadata (admin user updates). */
const identityWrites = faultyFetch({
  matches: (method, url) => method === 'PUT' && url.pathname.startsWith('/auth/v1/admin/users/'),
  fault: 'server-error',
});
identityWrites.enabled = false;
let writesSeen = 0;
const countingFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  if (request.method === 'PUT' && new URL(request.url).pathname.startsWith('/auth/v1/admin/users/')) writesSeen++;
  return identityWrites.fetch(request);
};

let billing: BillingTestApp;

beforeAll(async () => {
  billing = await startBillingApp(
    { AUTH_RATE_LIMIT_TOKEN: '1000', AUTH_RATE_LIMIT_TOKEN_BURST: '1000' },
    { identityFetch: countingFetch },
  );
});
afterAll(async () => {
  await billing.close();
});

/** What the webhook may have written for a member. */
async function state(member: SignedUpMember): Promise<unknown> {
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
async function paidCheckout(): Promise<{
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

describe('signatures (B12)', () => {
  const tampered: [string, (event: Record<string, unknown>) => { payload: string; signature?: string }][] = [
    ['signed with another secret', (event) => signEvent(event, { secret: 'whsec_someone_else' })],
    [
      'with one byte changed',
      (event) => {
        const { payload, signature } = signEvent(event);
        return { payload: payload.replace('"pending_webhooks": 1', '"pending_webhooks": 2'), signature };
      },
    ],
    ['signed more than 300 s ago', (event) => signEvent(event, { timestamp: Math.floor(Date.now() / 1000) - 301 })],
    [
      'parsed and re-serialized instead of raw',
      (event) => {
        const { payload, signature } = signEvent(event);
        return { payload: JSON.stringify(JSON.parse(payload)), signature };
      },
    ],
    ['without a signature', (event) => ({ payload: signEvent(event).payload })],
  ];

  it.each(tampered)('refuses an event %s with 400, writing nothing', async (_case, tamper) => {
    const { member, event } = await paidCheckout();
    const before = await state(member);
    const response = await deliver(billing.api, tamper(event));
    expect(response).toEqual({ status: 400, body: { error: 'invalid_signature' } });
    expect(await state(member)).toEqual(before);
    // The same event, genuinely signed, is taken: the refusal was the signature's doing.
    expect((await deliver(billing.api, signEvent(event))).status).toBe(200);
    expect(await state(member)).not.toEqual(before);
  });
});

describe('duplicates (F5)', () => {
  it('applies an event delivered several times at once exactly once', async () => {
    const { member, event } = await paidCheckout();
    const delivery = signEvent(event);
    const writesBefore = writesSeen;
    const responses = await Promise.all(Array.from({ length: 4 }, () => deliver(billing.api, delivery)));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    expect(responses.filter((response) => response.body.duplicate === false)).toHaveLength(1);
    const recorded = await billing.api.dataSource.getRepository(BillingEventRecord).findBy({ id: String(event.id) });
    expect(recorded).toHaveLength(1);
    expect(writesSeen - writesBefore).toBe(1);
    expect(await refreshedRole(billing.api, member)).toBe('plus');
  });
});

describe('order (F6)', () => {
  it('ends in "not Plus" when the deletion arrives before an older update', async () => {
    const member = await signUpMember(billing.api);
    const customerId = await checkout(billing, member);
    const subscription = billing.stripe.setSubscription({
      customer: customerId,
      price: billing.plusPrice,
      status: 'active',
    });
    const created = Math.floor(Date.now() / 1000);
    const updated = billing.stripe.event('customer.subscription.updated', subscription, { created: created - 5 });
    Object.assign(subscription, { status: 'canceled' });
    const deleted = billing.stripe.event('customer.subscription.deleted', subscription, { created });

    expect((await deliver(billing.api, signEvent(deleted))).status).toBe(200);
    expect((await deliver(billing.api, signEvent(updated))).status).toBe(200);

    const stored = await billing.api.dataSource
      .getRepository(BillingSubscriptionRecord)
      .findOneByOrFail({ id: subscription.id });
    expect(stored.status).toBe('canceled');
    expect(
      await billing.api.dataSource.getRepository(UserRecord).findOneByOrFail({ uid: member.member.user.uid }),
    ).toMatchObject({
      stripeRole: null,
    });
    expect(await refreshedRole(billing.api, member)).toBeUndefined();
  });

  it('stays Plus when a stale past_due update arrives after the payment went through', async () => {
    const member = await signUpMember(billing.api);
    const { subscriptionId, customerId } = await completeCheckout(billing, member);
    const stale = billing.stripe.setSubscription({
      id: subscriptionId,
      customer: customerId,
      price: billing.plusPrice,
      status: 'past_due',
    });
    const old = billing.stripe.event('customer.subscription.updated', stale, {
      created: Math.floor(Date.now() / 1000) - 60,
    });
    billing.stripe.setSubscription({
      id: subscriptionId,
      customer: customerId,
      price: billing.plusPrice,
      status: 'active',
    });
    expect((await deliver(billing.api, signEvent(old))).status).toBe(200);
    const stored = await billing.api.dataSource
      .getRepository(BillingSubscriptionRecord)
      .findOneByOrFail({ id: subscriptionId });
    expect(stored).toMatchObject({ status: 'active', pastDueSince: null });
    expect(await refreshedRole(billing.api, member)).toBe('plus');
  });
});

describe('failures (F7)', () => {
  it('rolls back an event whose handling fails after it was recorded, and applies the retry once', async () => {
    const { member, event } = await paidCheckout();
    const before = await state(member);
    const delivery = signEvent(event);
    // The last write of the transaction fails: the event row and the subscription are already written.
    const removeFault = await failInserts(billing.api.dataSource, 'billing_pending_claims');
    try {
      expect((await deliver(billing.api, delivery)).status).toBe(500);
    } finally {
      await removeFault();
    }
    expect(await state(member)).toEqual(before);

    expect(await deliver(billing.api, delivery)).toEqual({ status: 200, body: { received: true, duplicate: false } });
    expect(await deliver(billing.api, delivery)).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(await billing.api.dataSource.getRepository(BillingEventRecord).countBy({ id: String(event.id) })).toBe(1);
    expect(await refreshedRole(billing.api, member)).toBe('plus');
  });

  it('answers 500 while the identity service refuses the claim, and writes it on redelivery', async () => {
    const { member, event } = await paidCheckout();
    const delivery = signEvent(event);
    identityWrites.enabled = true;
    try {
      expect((await deliver(billing.api, delivery)).status).toBe(500);
    } finally {
      identityWrites.enabled = false;
    }
    const uid = member.member.user.uid;
    expect(await billing.api.dataSource.getRepository(BillingPendingClaimRecord).existsBy({ uid })).toBe(true);
    expect(await refreshedRole(billing.api, member)).toBeUndefined();

    expect(await deliver(billing.api, delivery)).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(await billing.api.dataSource.getRepository(BillingPendingClaimRecord).existsBy({ uid })).toBe(false);
    expect(await refreshedRole(billing.api, member)).toBe('plus');
  });

  it('answers 500 and records nothing while Stripe cannot be reached, and applies the retry', async () => {
    const { member, event } = await paidCheckout();
    const before = await state(member);
    const delivery = signEvent(event);
    billing.stripe.outage = true;
    try {
      expect((await deliver(billing.api, delivery)).status).toBe(500);
    } finally {
      billing.stripe.outage = false;
    }
    expect(await state(member)).toEqual(before);
    expect(await deliver(billing.api, delivery)).toEqual({ status: 200, body: { received: true, duplicate: false } });
    expect(await refreshedRole(billing.api, member)).toBe('plus');
  });
});

describe('subscriptions of deleted accounts', () => {
  /** Deletes the member's account through the API. */
  async function deleteAccount(member: SignedUpMember): Promise<void> {
    const response = await billing.api.graphql(
      'mutation ($password: String!) { deleteAccount(password: $password) }',
      { password: member.password },
      { token: member.session.accessToken },
    );
    expect(response.errors).toBeUndefined();
  }

  const isRecorded = (event: Record<string, unknown>): Promise<boolean> =>
    billing.api.dataSource.getRepository(BillingEventRecord).existsBy({ id: String(event.id) });

  it('cancels at once a subscription whose completed checkout names a member deleted meanwhile', async () => {
    const member = await signUpMember(billing.api);
    const uid = member.member.user.uid;
    const customerId = await checkout(billing, member);
    await deleteAccount(member);
    // Stripe completed a checkout the deletion did not see (opened from a second tab as it ran).
    const subscription = billing.stripe.setSubscription({
      customer: customerId,
      price: billing.plusPrice,
      status: 'active',
    });
    const session = {
      id: 'cs_test_late',
      object: 'checkout.session',
      customer: customerId,
      client_reference_id: uid,
      metadata: { lampstand_uid: uid },
      subscription: subscription.id,
      status: 'complete',
    };
    const event = billing.stripe.event('checkout.session.completed', session);

    expect(await deliver(billing.api, signEvent(event))).toEqual({
      status: 200,
      body: { received: true, duplicate: false },
    });
    expect(subscription.status).toBe('canceled');
    expect(billing.stripe.requests).toContain(`DELETE /v1/subscriptions/${subscription.id}`);
    expect(await isRecorded(event)).toBe(true);
    expect(await billing.api.dataSource.getRepository(BillingCustomerRecord).existsBy({ uid })).toBe(false);
    expect(await billing.api.dataSource.getRepository(BillingSubscriptionRecord).existsBy({ uid })).toBe(false);
  });

  it('cancels at once a subscription whose metadata names a deleted member, whatever the event', async () => {
    const member = await signUpMember(billing.api);
    const uid = member.member.user.uid;
    const customerId = await checkout(billing, member);
    await deleteAccount(member);
    const subscription = billing.stripe.setSubscription({
      customer: customerId,
      price: billing.plusPrice,
      status: 'active',
      metadata: { lampstand_uid: uid },
    });
    const created = billing.stripe.event('customer.subscription.created', subscription);
    expect((await deliver(billing.api, signEvent(created))).status).toBe(200);
    expect(subscription.status).toBe('canceled');
    expect(await isRecorded(created)).toBe(true);

    // Later events about it change nothing more.
    const deleted = billing.stripe.event('customer.subscription.deleted', subscription);
    expect((await deliver(billing.api, signEvent(deleted))).status).toBe(200);
    expect(
      billing.stripe.requests.filter((request) => request === `DELETE /v1/subscriptions/${subscription.id}`),
    ).toHaveLength(1);
  });

  it('cancels at once a subscription of a member whose deletion is under way', async () => {
    const member = await signUpMember(billing.api);
    const uid = member.member.user.uid;
    const customerId = await checkout(billing, member);
    // An interrupted deletion: the records are marked, the rest waits for the next attempt.
    await billing.api.dataSource.getRepository(UserRecord).update({ uid }, { deletingAt: new Date() });
    const subscription = billing.stripe.setSubscription({
      customer: customerId,
      price: billing.plusPrice,
      status: 'active',
      metadata: { lampstand_uid: uid },
    });
    const event = billing.stripe.event('customer.subscription.created', subscription);
    expect((await deliver(billing.api, signEvent(event))).status).toBe(200);
    expect(subscription.status).toBe('canceled');
    const stored = await billing.api.dataSource
      .getRepository(BillingSubscriptionRecord)
      .findOneBy({ id: subscription.id });
    expect(stored?.status).toBe('canceled');
    expect(await billing.api.dataSource.getRepository(UserRecord).findOneByOrFail({ uid })).toMatchObject({
      stripeRole: null,
    });
  });

  it('leaves alone a subscription that names no member (made outside Lampstand on the same account)', async () => {
    const customer = 'cus_someone_elses';
    const subscription = billing.stripe.setSubscription({ customer, price: billing.plusPrice, status: 'active' });
    const event = billing.stripe.event('customer.subscription.created', subscription);
    expect((await deliver(billing.api, signEvent(event))).status).toBe(200);
    expect(subscription.status).toBe('active');
    expect(await isRecorded(event)).toBe(true);
  });

  it("leaves alone another app's subscription whose checkout and metadata name its own user as uid", async () => {
    // Another app on the same Stripe account, with ids shaped like ours for people who are not members.
    const theirs = randomUUID();
    const customer = 'cus_other_app';
    const subscription = billing.stripe.setSubscription({
      customer,
      price: billing.plusPrice,
      status: 'active',
      metadata: { uid: theirs },
    });
    const session = {
      id: 'cs_test_other_app',
      object: 'checkout.session',
      customer,
      client_reference_id: theirs,
      metadata: { uid: theirs },
      subscription: subscription.id,
      status: 'complete',
    };
    for (const event of [
      billing.stripe.event('checkout.session.completed', session),
      billing.stripe.event('customer.subscription.created', subscription),
    ]) {
      expect(await deliver(billing.api, signEvent(event))).toEqual({
        status: 200,
        body: { received: true, duplicate: false },
      });
      expect(await isRecorded(event)).toBe(true);
    }
    expect(subscription.status).toBe('active');
    expect(billing.stripe.requests).not.toContain(`DELETE /v1/subscriptions/${subscription.id}`);
    expect(await billing.api.dataSource.getRepository(BillingCustomerRecord).existsBy({ customerId: customer })).toBe(
      false,
    );
  });
});

describe('a grant and a webhook at once', () => {
  it('keeps Plus when an operator grants it while the subscription is being deleted', async () => {
    const { api, stripe } = billing;
    const member = await signUpMember(api);
    const uid = member.member.user.uid;
    const customerId = await checkout(billing, member);
    const users = api.dataSource.getRepository(UserRecord);
    for (let round = 0; round < 20; round++) {
      // Plus through a new subscription only.
      await api.app.billing.revoke(member.email);
      const subscription = stripe.setSubscription({ customer: customerId, price: billing.plusPrice, status: 'active' });
      expect((await deliver(api, signEvent(stripe.event('customer.subscription.created', subscription)))).status).toBe(
        200,
      );
      Object.assign(subscription, { status: 'canceled' });
      const deleted = signEvent(stripe.event('customer.subscription.deleted', subscription));
      // Staggered a little differently each round, so that the two transactions overlap in many ways.
      const [response] = await Promise.all([
        deliver(api, deleted),
        delay(round % 5).then(() => api.app.billing.grant(member.email)),
      ]);
      expect(response.status).toBe(200);
      expect(await users.findOneByOrFail({ uid }), `round ${round}`).toMatchObject({ stripeRole: 'plus' });
      expect(await refreshedRole(api, member), `round ${round}`).toBe('plus');
    }
  });
});

describe('catalog events', () => {
  it('takes Plus away from subscribers when the product loses its role, and gives it back', async () => {
    const { api, stripe } = billing;
    const members = [await signUpMember(api), await signUpMember(api)];
    for (const member of members) await completeCheckout(billing, member);
    const product = stripe.products.get(billing.plusProduct);
    if (!product) throw new Error('no product');
    const roles = (): Promise<(string | null)[]> =>
      Promise.all(
        members.map(
          async (member) =>
            (await api.dataSource.getRepository(UserRecord).findOneByOrFail({ uid: member.member.user.uid }))
              .stripeRole,
        ),
      );
    try {
      Object.assign(product, { metadata: {} });
      const delivery = signEvent(stripe.event('product.updated', product));
      const writesBefore = writesSeen;
      expect((await deliver(api, delivery)).status).toBe(200);
      // Plus ends at once on the server; the claims of several members wait for the maintenance pass.
      expect(await roles()).toEqual([null, null]);
      expect(await deliver(api, delivery)).toEqual({ status: 200, body: { received: true, duplicate: true } });
      expect(writesSeen).toBe(writesBefore);
      await api.app.billing.runMaintenance();
      for (const member of members) expect(await refreshedRole(api, member)).toBeUndefined();
    } finally {
      Object.assign(product, { metadata: { role: 'plus' } });
      expect((await deliver(api, signEvent(stripe.event('product.updated', product)))).status).toBe(200);
      await api.app.billing.runMaintenance();
    }
    expect(await roles()).toEqual(['plus', 'plus']);
    for (const member of members) expect(await refreshedRole(api, member)).toBe('plus');
  });
});

describe('the record of processed events', () => {
  it('is kept while Stripe may deliver an event again, and forgotten after thirty days', async () => {
    const { event } = await paidCheckout();
    const eventId = String(event.id);
    expect((await deliver(billing.api, signEvent(event))).status).toBe(200);
    const events = billing.api.dataSource.getRepository(BillingEventRecord);
    expect(await events.existsBy({ id: eventId })).toBe(true);

    const DAY_MS = 24 * 60 * 60 * 1000;
    await billing.api.app.billing.runMaintenance(new Date(Date.now() + 29 * DAY_MS));
    expect(await events.existsBy({ id: eventId })).toBe(true);
    // A redelivery within the window is still recognised.
    expect(await deliver(billing.api, signEvent(event))).toEqual({
      status: 200,
      body: { received: true, duplicate: true },
    });

    const { eventsPruned } = await billing.api.app.billing.runMaintenance(new Date(Date.now() + 31 * DAY_MS));
    expect(eventsPruned).toBeGreaterThanOrEqual(1);
    expect(await events.existsBy({ id: eventId })).toBe(false);
  });
});
