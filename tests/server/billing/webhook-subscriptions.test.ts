import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { UserRecord } from '../../../server/src/members/user.entity.js';
import {
  BillingCustomerRecord,
  BillingEventRecord,
  BillingSubscriptionRecord,
} from '../../../server/src/billing/billing.entities.js';
import { checkout, completeCheckout, refreshedRole } from '../../support/billing.js';
import type { SignedUpMember } from '../../support/members.js';
import { signUpMember } from '../../support/members.js';
import { deliver, signEvent } from '../../support/stripe-fake.js';
import { paidCheckout as paidCheckoutOf, webhookTestApp } from '../../support/billing-webhooks.js';

const { billing, identityWrites } = webhookTestApp();

const paidCheckout = () => paidCheckoutOf(billing);

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
      const writesBefore = identityWrites.seen();
      expect((await deliver(api, delivery)).status).toBe(200);
      // Plus ends at once on the server; the claims of several members wait for the maintenance pass.
      expect(await roles()).toEqual([null, null]);
      expect(await deliver(api, delivery)).toEqual({ status: 200, body: { received: true, duplicate: true } });
      expect(identityWrites.seen()).toBe(writesBefore);
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
