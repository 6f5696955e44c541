import type { DataSource } from 'typeorm';
import { In } from 'typeorm';
import { isUniqueViolation } from '../db/errors.js';
import type { AuthUser } from '../graphql/context.js';
import { appError, badUserInput, ErrorCode } from '../graphql/errors.js';
import { requireLiveMember } from '../members/live-member.js';
import { PLUS_ROLE } from '../rules/plan.js';
import { UserRecord } from '../members/user.entity.js';
import { requireSecondFactor } from '../identity/assurance.js';
import type { IdentityClient } from '../identity/identity.client.js';
import {
  BillingCustomerRecord,
  BillingPriceRecord,
  BillingProductRecord,
  BillingSubscriptionRecord,
} from './billing.entities.js';
import { savePrice } from './catalog-store.js';
import { SUBSCRIBED_STATUSES } from './entitlement.js';
import type { StripeClient } from './stripe.client.js';
import { callStripe, requireStripe } from './stripe.client.js';

/** A price on sale, with its product. */
export interface PlanOffer {
  price: BillingPriceRecord;
  product: BillingProductRecord;
}

/**
 * Buying Plus: the prices on sale, Stripe Checkout for one of them, and the billing portal where
 * members change card or plan or cancel. The member's Stripe customer is made on first use.
 */
export class CheckoutService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly stripe: StripeClient | null,
    private readonly publicUrl: string,
    private readonly identity: IdentityClient,
  ) {}

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
    const stripe = requireStripe(this.stripe);
    await requireSecondFactor(this.identity, actor);
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
        successUrl: `${this.publicUrl}/plus?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${this.publicUrl}/plus?checkout=cancelled`,
      }),
    );
  }

  /** Opens the Stripe billing portal for the member's customer and returns its URL. */
  async openBillingPortal(actor: AuthUser): Promise<string> {
    const stripe = requireStripe(this.stripe);
    await requireSecondFactor(this.identity, actor);
    const customerId = await this.customerFor(actor.id);
    return callStripe(() => stripe.createPortalSession(customerId, `${this.publicUrl}/plus`));
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
    const user = requireLiveMember(await this.dataSource.getRepository(UserRecord).findOneBy({ uid }));
    const stripe = requireStripe(this.stripe);
    const customerId = await callStripe(() => stripe.findOrCreateCustomer(uid, user.email));
    try {
      await customers.insert({ uid, customerId, createdAt: new Date() });
      return customerId;
    } catch (error) {
      const raced = isUniqueViolation(error) ? await customers.findOneBy({ uid }) : null;
      if (raced) return raced.customerId;
      throw error;
    }
  }
}
