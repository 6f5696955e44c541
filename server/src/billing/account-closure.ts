import type { GraphQLError } from 'graphql';
import type { DataSource } from 'typeorm';
import { In, Not } from 'typeorm';
import { appError, ErrorCode } from '../graphql/errors.js';
import type { AccountLifecycle } from '../members/member-lifecycle.js';
import { BillingCustomerRecord, BillingSubscriptionRecord } from './billing.entities.js';
import { ENDED_STATUSES } from './entitlement.js';
import type { StripeClient } from './stripe.client.js';
import { callStripe } from './stripe.client.js';

/**
 * Billing's part in an account's end: a member's Stripe billing stops before the account goes,
 * and an account whose billing cannot be stopped (Stripe keys unset) is not deleted.
 */
export class BillingAccountClosure implements AccountLifecycle {
  constructor(
    private readonly dataSource: DataSource,
    private readonly stripe: StripeClient | null,
  ) {}

  /**
   * Refuses the deletion of a member who has a Stripe customer while billing is off: their
   * subscriptions could not be cancelled, and deleting the account would drop the customer link
   * that tells whose they are, leaving them charging.
   */
  async checkDeletable(uid: string): Promise<void> {
    if (!this.stripe && (await this.dataSource.getRepository(BillingCustomerRecord).existsBy({ uid }))) {
      throw cannotCancelWithoutStripe();
    }
  }

  /**
   * Before the member's account is deleted: expires their open checkouts, so that no new
   * subscription can start, then cancels every subscription at Stripe. Throws, changing nothing,
   * while billing is off and the member has a Stripe customer (see checkDeletable).
   */
  async accountDeleting(uid: string): Promise<void> {
    const customer = await this.dataSource.getRepository(BillingCustomerRecord).findOneBy({ uid });
    if (!customer) return;
    if (!this.stripe) throw cannotCancelWithoutStripe();
    const stripe = this.stripe;
    // First: a checkout completed after the subscriptions were listed would start a new one.
    await callStripe(() => stripe.expireOpenCheckoutSessions(customer.customerId));
    // Stripe's list, not ours: a checkout completed moments ago may not have reached the webhook yet.
    const live = await callStripe(() => stripe.listOpenSubscriptions(customer.customerId));
    for (const id of live) await callStripe(() => stripe.cancelSubscription(id));
    await this.dataSource
      .getRepository(BillingSubscriptionRecord)
      .update({ uid, status: Not(In([...ENDED_STATUSES])) }, { status: 'canceled' });
  }
}

/** The refusal to delete an account whose Stripe billing cannot be stopped (keys unset). */
function cannotCancelWithoutStripe(): GraphQLError {
  return appError(
    ErrorCode.BILLING_NOT_CONFIGURED,
    'Payments are not set up on this server right now, so your Stripe billing cannot be stopped. ' +
      'Your account was not deleted; please try again later.',
  );
}
