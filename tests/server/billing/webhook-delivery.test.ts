import { describe, expect, it } from 'vitest';
import { UserRecord } from '../../../server/src/members/user.entity.js';
import {
  BillingEventRecord,
  BillingPendingClaimRecord,
  BillingSubscriptionRecord,
} from '../../../server/src/billing/billing.entities.js';
import { checkout, completeCheckout, refreshedRole } from '../../support/billing.js';
import { failInserts } from '../../support/faults.js';
import type { SignedUpMember } from '../../support/members.js';
import { signUpMember } from '../../support/members.js';
import { deliver, signEvent } from '../../support/stripe-fake.js';
import { paidCheckout as paidCheckoutOf, webhookState, webhookTestApp } from '../../support/billing-webhooks.js';

const { billing, identityWrites } = webhookTestApp();

const state = (member: SignedUpMember) => webhookState(billing, member);
const paidCheckout = () => paidCheckoutOf(billing);

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
    const writesBefore = identityWrites.seen();
    const responses = await Promise.all(Array.from({ length: 4 }, () => deliver(billing.api, delivery)));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    expect(responses.filter((response) => response.body.duplicate === false)).toHaveLength(1);
    const recorded = await billing.api.dataSource.getRepository(BillingEventRecord).findBy({ id: String(event.id) });
    expect(recorded).toHaveLength(1);
    expect(identityWrites.seen() - writesBefore).toBe(1);
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
    identityWrites.faults.enabled = true;
    try {
      expect((await deliver(billing.api, delivery)).status).toBe(500);
    } finally {
      identityWrites.faults.enabled = false;
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
