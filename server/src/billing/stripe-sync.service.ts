import type { FastifyBaseLogger } from 'fastify';
import type { DataSource, EntityManager } from 'typeorm';
import { In, LessThan } from 'typeorm';
import { isUniqueViolation } from '../db/errors.js';
import { isLiveMember } from '../rules/page-access.js';
import { UserRecord } from '../members/user.entity.js';
import {
  BillingCustomerRecord,
  BillingEventRecord,
  BillingPriceRecord,
  BillingProductRecord,
  BillingSubscriptionRecord,
} from './billing.entities.js';
import { saveIfNewer, savePrice, saveProduct } from './catalog-store.js';
import type { ClaimsOutbox } from './claims-outbox.js';
import { ENDED_STATUSES } from './entitlement.js';
import type { PlusRoleService } from './plus-role.service.js';
import type {
  BillingEvent,
  PriceSnapshot,
  ProductSnapshot,
  StripeClient,
  SubscriptionSnapshot,
} from './stripe.client.js';
import { callStripe, requireStripe } from './stripe.client.js';

/** How long a processed Stripe event is remembered: well past Stripe's three days of redelivery. */
const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** What handling one webhook event came to. */
export interface WebhookOutcome {
  duplicate: boolean;
}

/** What an event needs from Stripe, read before the transaction (never hold one open over the network). */
type EventWork =
  | {
      kind: 'subscription';
      id: string;
      snapshot: SubscriptionSnapshot | null;
      link: { customerId: string; uid: string } | null;
    }
  | { kind: 'product'; id: string; snapshot: ProductSnapshot | null }
  | { kind: 'price'; id: string; snapshot: PriceSnapshot | null }
  | { kind: 'none' };

/**
 * Keeps our copy of Stripe in step: the webhook's events (each once, in one transaction, never
 * moving a record back to an older state, re-reading the objects they name from Stripe), the
 * catalog read at start, subscriptions bought for deleted accounts, and the event log's pruning.
 */
export class StripeSyncService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly stripe: StripeClient | null,
    private readonly roles: PlusRoleService,
    private readonly outbox: ClaimsOutbox,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Applies one verified Stripe event. A recorded event is a duplicate and changes nothing. The
   * objects it names are read afresh from Stripe first, so that late or out-of-order deliveries
   * apply the current state; then the event is recorded in the same transaction as its effect.
   * Throws when anything fails, nothing recorded, so that Stripe delivers it again. When the event
   * changed one member's role, their claim is written before it returns (a duplicate tries again);
   * several members' claims stay queued for runMaintenance.
   */
  async handleEvent(event: BillingEvent): Promise<WebhookOutcome> {
    const events = this.dataSource.getRepository(BillingEventRecord);
    const recorded = await events.findOneBy({ id: event.id });
    if (recorded) {
      // A delivery after a failed claim write: try that write again before answering.
      if (recorded.uid !== null) await this.outbox.flush([recorded.uid]);
      return { duplicate: true };
    }
    const syncedAt = new Date();
    const work = await this.readFromStripe(event);
    // Before the event is recorded: if cancelling fails, Stripe's redelivery tries again.
    if (work.kind === 'subscription' && work.snapshot && (await this.isOrphan(work.snapshot, work.link))) {
      work.snapshot = await this.cancelOrphan(work.snapshot);
    }
    let affected: string[];
    try {
      affected = await this.dataSource.transaction(async (manager) => {
        await manager.insert(BillingEventRecord, {
          id: event.id,
          type: event.type,
          createdAt: event.created,
          processedAt: new Date(),
          uid: null,
        });
        const uids = await this.apply(manager, work, event, syncedAt);
        // In one order, so that two transactions locking the same members cannot deadlock.
        for (const uid of [...uids].sort()) await this.roles.refresh(manager, uid, new Date());
        if (uids.length === 1) await manager.update(BillingEventRecord, { id: event.id }, { uid: uids[0] });
        return uids;
      });
    } catch (error) {
      if (isUniqueViolation(error) && (await events.existsBy({ id: event.id }))) return { duplicate: true };
      throw error;
    }
    // Several members at once (a product gaining or losing its role) would take one identity call
    // each before Stripe's delivery times out: their claims are left to runMaintenance.
    if (affected.length === 1) await this.outbox.flush(affected);
    return { duplicate: false };
  }

  /**
   * Forgets processed events once Stripe can no longer deliver them again (it retries for three
   * days; they are kept for thirty), so that `billing_events` does not grow for ever. A record is
   * only there to recognise a redelivery.
   */
  async pruneEvents(now = new Date()): Promise<number> {
    const result = await this.dataSource
      .getRepository(BillingEventRecord)
      .delete({ processedAt: LessThan(new Date(now.getTime() - EVENT_RETENTION_MS)) });
    return result.affected ?? 0;
  }

  /** Reads every active price (and product) from Stripe, so that `plans` knows what was on sale before the webhook. */
  async syncCatalog(): Promise<number> {
    if (!this.stripe) return 0;
    const stripe = this.stripe;
    const syncedAt = new Date();
    const prices = await callStripe(() => stripe.listActivePrices());
    await this.dataSource.transaction(async (manager) => {
      for (const price of prices) await savePrice(manager, price, syncedAt);
    });
    return prices.length;
  }

  /**
   * Whether a subscription was bought for a member who no longer has an account (deleted, or being
   * deleted): a checkout opened before the deletion and completed after it. Its member is the one
   * its customer is linked to, else the one its checkout's or its own `lampstand_uid` metadata
   * names. Without either it was made outside Lampstand (another app's `client_reference_id` or
   * `metadata.uid` names that app's users, not ours) and is not ours to judge.
   */
  private async isOrphan(
    snapshot: SubscriptionSnapshot,
    link: { customerId: string; uid: string } | null,
  ): Promise<boolean> {
    if (ENDED_STATUSES.has(snapshot.status)) return false;
    const customer = await this.dataSource
      .getRepository(BillingCustomerRecord)
      .findOneBy({ customerId: snapshot.customerId });
    const uid = customer?.uid ?? link?.uid ?? snapshot.uid;
    if (uid === null) return false;
    return !isLiveMember(await this.dataSource.getRepository(UserRecord).findOneBy({ uid }));
  }

  /** Cancels an orphaned subscription at Stripe at once, and returns its state after that. */
  private async cancelOrphan(snapshot: SubscriptionSnapshot): Promise<SubscriptionSnapshot | null> {
    const stripe = requireStripe(this.stripe);
    this.log.warn(
      { subscriptionId: snapshot.id, customerId: snapshot.customerId },
      'subscription of a deleted account: cancelled at Stripe so that nobody is charged for it',
    );
    await stripe.cancelSubscription(snapshot.id);
    return stripe.retrieveSubscription(snapshot.id);
  }

  private async readFromStripe(event: BillingEvent): Promise<EventWork> {
    const stripe = this.stripe;
    if (!stripe) return { kind: 'none' };
    const { subject } = event;
    switch (subject.kind) {
      case 'none':
        return subject;
      case 'subscription':
        return { ...subject, snapshot: await stripe.retrieveSubscription(subject.id) };
      case 'product':
        return { ...subject, snapshot: await stripe.retrieveProduct(subject.id) };
      case 'price':
        return { ...subject, snapshot: await stripe.retrievePrice(subject.id) };
    }
  }

  /** Writes what was read from Stripe; returns the members whose Plus may have changed. */
  private async apply(manager: EntityManager, work: EventWork, event: BillingEvent, syncedAt: Date): Promise<string[]> {
    switch (work.kind) {
      case 'none':
        return [];
      case 'product':
        return this.applyProduct(manager, work.id, work.snapshot, syncedAt);
      case 'price':
        if (work.snapshot) await savePrice(manager, work.snapshot, syncedAt);
        else await saveIfNewer(manager, BillingPriceRecord, work.id, { active: false, syncedAt }, null);
        return [];
      case 'subscription':
        if (work.link) await this.linkCustomer(manager, work.link);
        return this.applySubscription(manager, work.id, work.snapshot, event.created, syncedAt);
    }
  }

  private async applyProduct(
    manager: EntityManager,
    id: string,
    snapshot: ProductSnapshot | null,
    syncedAt: Date,
  ): Promise<string[]> {
    if (!snapshot) {
      await saveIfNewer(manager, BillingProductRecord, id, { active: false, syncedAt }, null);
      return [];
    }
    if (!(await saveProduct(manager, snapshot, syncedAt))) return [];
    // The role lives on the product: subscriptions to its prices follow a change of it.
    const prices = await manager.find(BillingPriceRecord, { select: { id: true }, where: { productId: id } });
    if (prices.length === 0) return [];
    const subscriptions = await manager.findBy(BillingSubscriptionRecord, {
      priceId: In(prices.map((price) => price.id)),
    });
    const changed = subscriptions.filter((subscription) => subscription.role !== snapshot.role);
    if (changed.length === 0) return [];
    await manager.update(
      BillingSubscriptionRecord,
      { id: In(changed.map((item) => item.id)) },
      { role: snapshot.role },
    );
    return [...new Set(changed.map((item) => item.uid))];
  }

  /** Links a checkout's customer to its member, unless either already has another link. */
  private async linkCustomer(manager: EntityManager, link: { customerId: string; uid: string }): Promise<void> {
    const byCustomer = await manager.findOneBy(BillingCustomerRecord, { customerId: link.customerId });
    if (byCustomer) return;
    const user = await manager.findOneBy(UserRecord, { uid: link.uid });
    if (!isLiveMember(user) || (await manager.existsBy(BillingCustomerRecord, { uid: link.uid }))) {
      this.log.warn(link, 'checkout for a customer that cannot be linked to its member; ignored');
      return;
    }
    await manager.insert(BillingCustomerRecord, { ...link, createdAt: new Date() });
  }

  private async applySubscription(
    manager: EntityManager,
    id: string,
    snapshot: SubscriptionSnapshot | null,
    eventTime: Date,
    syncedAt: Date,
  ): Promise<string[]> {
    const existing = await manager.findOneBy(BillingSubscriptionRecord, { id });
    if (!snapshot) {
      // Stripe no longer knows it: it cannot grant anything.
      if (!existing) return [];
      await saveIfNewer(
        manager,
        BillingSubscriptionRecord,
        id,
        { status: 'canceled', pastDueSince: null, syncedAt },
        null,
      );
      return [existing.uid];
    }
    const customer = await manager.findOneBy(BillingCustomerRecord, { customerId: snapshot.customerId });
    // A customer we never linked (another app on the account, or a deleted member): not ours.
    if (!customer) return [];
    if (snapshot.price) await savePrice(manager, snapshot.price, syncedAt);
    const product = snapshot.price
      ? await manager.findOneBy(BillingProductRecord, { id: snapshot.price.productId })
      : null;
    const pastDueSince =
      snapshot.status !== 'past_due' ? null : existing?.status === 'past_due' ? existing.pastDueSince : eventTime;
    const values = {
      uid: customer.uid,
      customerId: snapshot.customerId,
      status: snapshot.status,
      priceId: snapshot.price?.id ?? null,
      role: product?.role ?? null,
      currentPeriodEnd: snapshot.currentPeriodEnd,
      cancelAtPeriodEnd: snapshot.cancelAtPeriodEnd,
      pastDueSince,
      syncedAt,
    };
    await saveIfNewer(manager, BillingSubscriptionRecord, id, values, values);
    return existing && existing.uid !== customer.uid ? [existing.uid, customer.uid] : [customer.uid];
  }
}
