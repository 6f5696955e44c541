import type { FastifyBaseLogger } from 'fastify';
import type { GraphQLError } from 'graphql';
import type { DataSource, EntityManager, ObjectLiteral } from 'typeorm';
import { In, LessThan, Not } from 'typeorm';
import type { AccountLifecycle } from '../accounts/account.service.js';
import { UserRecord } from '../accounts/user.entity.js';
import { isUniqueViolation } from '../db/errors.js';
import type { AuthUser } from '../graphql/context.js';
import { appError, badUserInput, ErrorCode, unauthenticated } from '../graphql/errors.js';
import type { IdentityClient } from '../identity/identity.client.js';
import { IdentityError } from '../identity/identity.client.js';
import { isPlus, PLUS_ROLE } from '../profiles/profile.policies.js';
import {
  BillingCustomerRecord,
  BillingEventRecord,
  BillingGrantRecord,
  BillingPendingClaimRecord,
  BillingPriceRecord,
  BillingProductRecord,
  BillingSubscriptionRecord,
} from './billing.entities.js';
import type { Entitlement } from './entitlement.js';
import { ENDED_STATUSES, entitlementOf, GRANTING_STATUSES, SUBSCRIBED_STATUSES } from './entitlement.js';
import type {
  BillingEvent,
  PriceSnapshot,
  ProductSnapshot,
  StripeClient,
  SubscriptionSnapshot,
} from './stripe.client.js';
import { memberIdOf } from './stripe.client.js';

/** How long a processed Stripe event is remembered: well past Stripe's three days of redelivery. */
const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export interface BillingServiceOptions {
  /** The web app's address: checkout and the portal lead back to its Plus page. */
  publicUrl: string;
  graceDays: number;
  log: FastifyBaseLogger;
}

/** A price on sale, with its product. */
export interface PlanOffer {
  price: BillingPriceRecord;
  product: BillingProductRecord;
}

/** A member's Plus standing: the rule's verdict and the subscription that matters most. */
export interface PlusStanding {
  /** The stored verdict (`users.stripe_role`), which `me.plan` and every Plus feature read. */
  plus: boolean;
  /** The rule applied now, for `granted` and `graceEndsAt`; `plus` follows it at the next refresh. */
  entitlement: Entitlement;
  subscription: BillingSubscriptionRecord | null;
  hasCustomer: boolean;
}

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
 * Lampstand Plus through Stripe: customers, checkout and portal sessions, the webhook's effects
 * (each event once, in one transaction, never moving a record back to an older state), the Plus
 * rule, operator grants, and the role written to `users.stripe_role` and then to the identity
 * account's `app_metadata.stripeRole` (through a queue of pending claims, retried until written).
 */
export class BillingService implements AccountLifecycle {
  /** The last claim write started, per member: each new one waits for it, so that they run one at a time. */
  private readonly claimWrites = new Map<string, Promise<void>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly identity: IdentityClient,
    private readonly stripe: StripeClient | null,
    private readonly options: BillingServiceOptions,
  ) {}

  /** True when Stripe keys are configured. */
  get enabled(): boolean {
    return this.stripe !== null;
  }

  /** Prices on sale for Plus: active, recurring, of an active product whose role is `plus`. Empty without Stripe. */
  async plans(): Promise<PlanOffer[]> {
    if (!this.stripe) return [];
    const products = await this.dataSource
      .getRepository(BillingProductRecord)
      .findBy({ active: true, role: PLUS_ROLE });
    if (products.length === 0) return [];
    const byId = new Map(products.map((product) => [product.id, product]));
    const prices = await this.dataSource
      .getRepository(BillingPriceRecord)
      .find({ where: { active: true, productId: In([...byId.keys()]) }, order: { unitAmount: 'ASC', id: 'ASC' } });
    return prices.flatMap((price) => {
      const product = byId.get(price.productId);
      return product && price.interval !== null ? [{ price, product }] : [];
    });
  }

  /**
   * Opens a Stripe Checkout Session for a Plus price and returns its URL. The member's earlier
   * open sessions are expired first, so that paying on a page left open in another tab cannot
   * start a second subscription.
   */
  async startCheckout(actor: AuthUser, priceId: string): Promise<string> {
    const stripe = this.requireStripe();
    const offer = await this.findOffer(priceId.trim());
    if (!offer) throw badUserInput('This price is not on sale for Lampstand Plus.', 'priceId');
    const subscriptions = await this.dataSource.getRepository(BillingSubscriptionRecord).findBy({ uid: actor.id });
    if (subscriptions.some((item) => item.role === PLUS_ROLE && SUBSCRIBED_STATUSES.has(item.status))) {
      throw appError(ErrorCode.ALREADY_SUBSCRIBED, 'You already subscribe to Plus; manage it in the billing portal.');
    }
    const customerId = await this.customerFor(actor.id);
    await callStripe(() => stripe.expireOpenCheckoutSessions(customerId));
    return callStripe(() =>
      stripe.createCheckoutSession({
        customerId,
        priceId: offer.price.id,
        uid: actor.id,
        successUrl: `${this.options.publicUrl}/plus?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${this.options.publicUrl}/plus?checkout=cancelled`,
      }),
    );
  }

  /** Opens the Stripe billing portal for the member's customer and returns its URL. */
  async openBillingPortal(actor: AuthUser): Promise<string> {
    const stripe = this.requireStripe();
    const customerId = await this.customerFor(actor.id);
    return callStripe(() => stripe.createPortalSession(customerId, `${this.options.publicUrl}/plus`));
  }

  /** The member's Plus standing now. */
  async standing(actor: AuthUser, now = new Date()): Promise<PlusStanding> {
    this.requireStripe();
    const [user, subscriptions, granted, customer] = await Promise.all([
      this.dataSource.getRepository(UserRecord).findOneBy({ uid: actor.id }),
      this.dataSource.getRepository(BillingSubscriptionRecord).findBy({ uid: actor.id }),
      this.dataSource.getRepository(BillingGrantRecord).existsBy({ uid: actor.id }),
      this.dataSource.getRepository(BillingCustomerRecord).existsBy({ uid: actor.id }),
    ]);
    return {
      plus: user !== null && isPlus(user),
      entitlement: entitlementOf({ granted, subscriptions }, now, this.options.graceDays),
      subscription: mostRelevant(subscriptions),
      hasCustomer: customer,
    };
  }

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
      if (recorded.uid !== null) await this.flushClaims([recorded.uid]);
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
        for (const uid of [...uids].sort()) await this.refreshRole(manager, uid, new Date());
        if (uids.length === 1) await manager.update(BillingEventRecord, { id: event.id }, { uid: uids[0] });
        return uids;
      });
    } catch (error) {
      if (isUniqueViolation(error) && (await events.existsBy({ id: event.id }))) return { duplicate: true };
      throw error;
    }
    // Several members at once (a product gaining or losing its role) would take one identity call
    // each before Stripe's delivery times out: their claims are left to runMaintenance.
    if (affected.length === 1) await this.flushClaims(affected);
    return { duplicate: false };
  }

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

  /** Grants Plus to the member with this email, independently of Stripe (operators, local use). */
  async grant(email: string): Promise<{ uid: string; entitlement: Entitlement }> {
    return this.changeGrant(email, async (manager, uid) => {
      await manager.upsert(BillingGrantRecord, { uid, grantedAt: new Date() }, ['uid']);
    });
  }

  /** Withdraws an operator's grant; a paid subscription still counts. */
  async revoke(email: string): Promise<{ uid: string; entitlement: Entitlement }> {
    return this.changeGrant(email, async (manager, uid) => {
      await manager.delete(BillingGrantRecord, { uid });
    });
  }

  /**
   * Periodic upkeep: members whose `past_due` grace period has run out lose Plus, and claims that
   * could not be written to the identity service are written now.
   */
  async runMaintenance(now = new Date()): Promise<{ reviewed: number; claimsWritten: number; eventsPruned: number }> {
    const pastDue = await this.dataSource
      .getRepository(BillingSubscriptionRecord)
      .find({ select: { uid: true }, where: { status: 'past_due', role: PLUS_ROLE } });
    const uids = [...new Set(pastDue.map((item) => item.uid))];
    for (const uid of uids) {
      await this.dataSource.transaction((manager) => this.refreshRole(manager, uid, now));
    }
    const pending = await this.dataSource.getRepository(BillingPendingClaimRecord).find({ select: { uid: true } });
    let claimsWritten = 0;
    for (const { uid } of pending) {
      try {
        await this.flushClaims([uid]);
        claimsWritten++;
      } catch (error) {
        this.options.log.warn({ err: error, uid }, 'stripeRole claim still not written; retrying later');
      }
    }
    return { reviewed: uids.length, claimsWritten, eventsPruned: await this.pruneEvents(now) };
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

  private requireStripe(): StripeClient {
    if (!this.stripe) {
      throw appError(ErrorCode.BILLING_NOT_CONFIGURED, 'Payments are not set up on this server.');
    }
    return this.stripe;
  }

  /** The price if it is on sale for Plus; one unknown here is looked up at Stripe (the catalog may lag). */
  private async findOffer(priceId: string): Promise<PlanOffer | null> {
    if (!/^[A-Za-z0-9_]{1,255}$/.test(priceId)) return null;
    let price = await this.dataSource.getRepository(BillingPriceRecord).findOneBy({ id: priceId });
    if (!price && this.stripe) {
      const stripe = this.stripe;
      const snapshot = await callStripe(() => stripe.retrievePrice(priceId));
      if (!snapshot) return null;
      const syncedAt = new Date();
      await this.dataSource.transaction((manager) => savePrice(manager, snapshot, syncedAt));
      price = await this.dataSource.getRepository(BillingPriceRecord).findOneBy({ id: priceId });
    }
    const product = price
      ? await this.dataSource.getRepository(BillingProductRecord).findOneBy({ id: price.productId })
      : null;
    if (!price?.active || price.interval === null || !product?.active || product.role !== PLUS_ROLE) return null;
    return { price, product };
  }

  /**
   * The member's Stripe customer, created on first use. Two racing requests both ask Stripe with
   * the same idempotency key (one customer comes back), and the unique key lets one link win.
   */
  private async customerFor(uid: string): Promise<string> {
    const customers = this.dataSource.getRepository(BillingCustomerRecord);
    const existing = await customers.findOneBy({ uid });
    if (existing) return existing.customerId;
    const user = await this.dataSource.getRepository(UserRecord).findOneBy({ uid });
    if (!user || user.deletingAt) throw unauthenticated('Your account no longer exists.');
    const stripe = this.requireStripe();
    const customerId = await callStripe(() => stripe.createCustomer(uid, user.email));
    try {
      await customers.insert({ uid, customerId, createdAt: new Date() });
      return customerId;
    } catch (error) {
      const raced = isUniqueViolation(error) ? await customers.findOneBy({ uid }) : null;
      if (raced) return raced.customerId;
      throw error;
    }
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
    const user = await this.dataSource.getRepository(UserRecord).findOneBy({ uid });
    if (!user) return true;
    return user.deletingAt !== null;
  }

  /** Cancels an orphaned subscription at Stripe at once, and returns its state after that. */
  private async cancelOrphan(snapshot: SubscriptionSnapshot): Promise<SubscriptionSnapshot | null> {
    const stripe = this.requireStripe();
    this.options.log.warn(
      { subscriptionId: snapshot.id, customerId: snapshot.customerId },
      'subscription of a deleted account: cancelled at Stripe so that nobody is charged for it',
    );
    await stripe.cancelSubscription(snapshot.id);
    return stripe.retrieveSubscription(snapshot.id);
  }

  private async readFromStripe(event: BillingEvent): Promise<EventWork> {
    const stripe = this.stripe;
    if (!stripe) return { kind: 'none' };
    const object = event.object;
    const [family] = event.type.split('.');
    if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') {
      const id = idField(object.subscription);
      const customerId = idField(object.customer);
      // Our own metadata key, not `client_reference_id`: another app on the account may set that.
      const uid = memberIdOf(object.metadata);
      if (!id) return { kind: 'none' };
      return {
        kind: 'subscription',
        id,
        snapshot: await stripe.retrieveSubscription(id),
        link: customerId && uid ? { customerId, uid } : null,
      };
    }
    if (event.type.startsWith('customer.subscription.')) {
      const id = idField(object.id);
      return id
        ? { kind: 'subscription', id, snapshot: await stripe.retrieveSubscription(id), link: null }
        : { kind: 'none' };
    }
    if (family === 'invoice') {
      const id = invoiceSubscriptionId(object);
      return id
        ? { kind: 'subscription', id, snapshot: await stripe.retrieveSubscription(id), link: null }
        : { kind: 'none' };
    }
    if (family === 'product') {
      const id = idField(object.id);
      return id ? { kind: 'product', id, snapshot: await stripe.retrieveProduct(id) } : { kind: 'none' };
    }
    if (family === 'price') {
      const id = idField(object.id);
      return id ? { kind: 'price', id, snapshot: await stripe.retrievePrice(id) } : { kind: 'none' };
    }
    return { kind: 'none' };
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
    if (!user || user.deletingAt || (await manager.existsBy(BillingCustomerRecord, { uid: link.uid }))) {
      this.options.log.warn(link, 'checkout for a customer that cannot be linked to its member; ignored');
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

  /**
   * Applies the Plus rule to the member: writes `users.stripe_role` and, when it changed, queues
   * the claim for the identity account, in the caller's transaction. The user row is locked
   * first, so that two transactions changing the member's grant and subscriptions at once
   * (READ COMMITTED on PostgreSQL) cannot each miss the other's change and write a wrong role.
   */
  private async refreshRole(manager: EntityManager, uid: string, now: Date): Promise<Entitlement> {
    // SQLite has no row locks, nor needs them: its transactions already run one at a time (db/sqlite-serial.ts).
    const rowLocks = manager.dataSource.options.type === 'postgres';
    const user = await manager.findOne(UserRecord, {
      where: { uid },
      ...(rowLocks && { lock: { mode: 'pessimistic_write' as const } }),
    });
    // One after another: a transaction is one connection, which runs one query at a time.
    const subscriptions = await manager.findBy(BillingSubscriptionRecord, { uid });
    const granted = await manager.existsBy(BillingGrantRecord, { uid });
    const entitlement = entitlementOf({ granted, subscriptions }, now, this.options.graceDays);
    if (user && user.stripeRole !== entitlement.role) {
      await manager.update(UserRecord, { uid }, { stripeRole: entitlement.role });
      await manager.upsert(BillingPendingClaimRecord, { uid, queuedAt: new Date() }, ['uid']);
    }
    return entitlement;
  }

  /**
   * Writes each member's pending claim to their identity account (see writeClaim). Writes for one
   * member run one after another, each starting afresh once the previous one is done (whether it
   * failed or not): joining one in flight could return before the latest role is written.
   */
  private async flushClaims(uids: readonly string[]): Promise<void> {
    for (const uid of uids) {
      const previous = this.claimWrites.get(uid) ?? Promise.resolve();
      const write = previous.catch(() => undefined).then(() => this.writeClaim(uid));
      this.claimWrites.set(uid, write);
      const forget = (): void => {
        if (this.claimWrites.get(uid) === write) this.claimWrites.delete(uid);
      };
      write.then(forget, forget);
      await write;
    }
  }

  /**
   * Writes the member's role to their identity account's `app_metadata.stripeRole` (removed when
   * null), so that the next token carries it, then removes the pending claim. The role is read
   * again after each write and written again until it stays the same, so that a write that read
   * it before a change (here or on another server) cannot be the last word. A claim queued again
   * meanwhile (a newer `queuedAt`) stays queued.
   */
  private async writeClaim(uid: string): Promise<void> {
    const pending = this.dataSource.getRepository(BillingPendingClaimRecord);
    const claim = await pending.findOneBy({ uid });
    if (!claim) return;
    const roleNow = async (): Promise<string | null> =>
      (await this.dataSource.getRepository(UserRecord).findOneBy({ uid }))?.stripeRole ?? null;
    let role = await roleNow();
    for (;;) {
      try {
        await this.identity.updateUserById(uid, { appMetadata: { stripeRole: role } });
      } catch (error) {
        if (!(error instanceof IdentityError && error.code === 'user_not_found')) throw error;
      }
      const after = await roleNow();
      if (after === role) break;
      role = after;
    }
    await pending.delete({ uid, queuedAt: claim.queuedAt });
  }

  private async changeGrant(
    email: string,
    change: (manager: EntityManager, uid: string) => Promise<void>,
  ): Promise<{ uid: string; entitlement: Entitlement }> {
    const user = await this.dataSource.getRepository(UserRecord).findOneBy({ email: email.trim().toLowerCase() });
    if (!user || user.deletingAt) throw badUserInput(`No member has the email address ${email.trim()}.`, 'email');
    const entitlement = await this.dataSource.transaction(async (manager) => {
      await change(manager, user.uid);
      return this.refreshRole(manager, user.uid, new Date());
    });
    await this.flushClaims([user.uid]);
    return { uid: user.uid, entitlement };
  }
}

/** The subscription to show a member: a Plus one that grants, else the latest. */
function mostRelevant(subscriptions: BillingSubscriptionRecord[]): BillingSubscriptionRecord | null {
  const rank = (item: BillingSubscriptionRecord): number =>
    (item.role === PLUS_ROLE ? 10 : 0) + (GRANTING_STATUSES.has(item.status) ? 2 : item.status === 'past_due' ? 1 : 0);
  const sorted = [...subscriptions].sort(
    (a, b) => rank(b) - rank(a) || (b.currentPeriodEnd?.getTime() ?? 0) - (a.currentPeriodEnd?.getTime() ?? 0),
  );
  return sorted[0] ?? null;
}

async function saveProduct(manager: EntityManager, product: ProductSnapshot, syncedAt: Date): Promise<boolean> {
  const values = {
    name: product.name,
    description: product.description,
    active: product.active,
    role: product.role,
    syncedAt,
  };
  return saveIfNewer(manager, BillingProductRecord, product.id, values, values);
}

async function savePrice(manager: EntityManager, price: PriceSnapshot, syncedAt: Date): Promise<void> {
  if (price.product) await saveProduct(manager, price.product, syncedAt);
  const values = {
    productId: price.productId,
    active: price.active,
    currency: price.currency,
    unitAmount: price.unitAmount,
    interval: price.interval,
    intervalCount: price.intervalCount,
    syncedAt,
  };
  await saveIfNewer(manager, BillingPriceRecord, price.id, values, values);
}

/**
 * Writes the state unless the row holds one read from Stripe later than this (so an older read,
 * finishing last, cannot overwrite a newer one). `full` inserts the row first when there is none;
 * a concurrent insert of the same row wins quietly and this state is then compared with it.
 */
async function saveIfNewer(
  manager: EntityManager,
  entity: typeof BillingProductRecord | typeof BillingPriceRecord | typeof BillingSubscriptionRecord,
  id: string,
  changes: ObjectLiteral & { syncedAt: Date },
  full: ObjectLiteral | null,
): Promise<boolean> {
  if (full !== null) {
    await manager
      .createQueryBuilder()
      .insert()
      .into(entity)
      .values({ id, ...full })
      .orIgnore()
      .execute();
  }
  const result = await manager
    .createQueryBuilder()
    .update(entity)
    .set(changes)
    .where('id = :id AND synced_at <= :syncedAt', { id, syncedAt: changes.syncedAt.getTime() })
    .execute();
  return (result.affected ?? 0) > 0;
}

function idField(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'string') return value.id;
  return null;
}

/** An invoice's subscription: under `parent.subscription_details` since API 2025-03-31, at the top before. */
function invoiceSubscriptionId(invoice: Record<string, unknown>): string | null {
  const parent = invoice.parent;
  if (typeof parent === 'object' && parent !== null && 'subscription_details' in parent) {
    const details = parent.subscription_details;
    if (typeof details === 'object' && details !== null && 'subscription' in details) {
      return idField(details.subscription);
    }
  }
  return idField(invoice.subscription);
}

/** The refusal to delete an account whose Stripe billing cannot be stopped (keys unset). */
function cannotCancelWithoutStripe(): GraphQLError {
  return appError(
    ErrorCode.BILLING_NOT_CONFIGURED,
    'Payments are not set up on this server right now, so your Stripe billing cannot be stopped. ' +
      'Your account was not deleted; please try again later.',
  );
}

/** Runs a Stripe call; a network failure or Stripe outage becomes BILLING_UNAVAILABLE. */
async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isStripeOutage(error)) {
      throw appError(ErrorCode.BILLING_UNAVAILABLE, 'Payments are unavailable right now. Please try again shortly.');
    }
    throw error;
  }
}

function isStripeOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : undefined;
  return (
    error.name === 'StripeConnectionError' || error.name === 'StripeAPIError' || (status !== undefined && status >= 500)
  );
}
