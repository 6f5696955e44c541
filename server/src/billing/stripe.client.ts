import type Stripe from 'stripe';
import type { Config } from '../config.js';
import { appError, ErrorCode } from '../graphql/errors.js';
import { ENDED_STATUSES } from './entitlement.js';

/** The Stripe API version this code was written against; webhook endpoints should use it too. */
const STRIPE_API_VERSION = '2026-10-28.endive';
/** Stripe's signature tolerance: a webhook signed longer ago than this is refused as a replay. */
const WEBHOOK_TOLERANCE_SECONDS = 300;
const STRIPE_TIMEOUT_MS = 10_000;
/**
 * The metadata key naming the Lampstand member, on customers, checkout sessions and subscriptions.
 * Namespaced: other apps on the same Stripe account may keep their own user ids under `uid`.
 */
const MEMBER_METADATA_KEY = 'lampstand_uid';

/** A Stripe product as the billing service needs it. */
export interface ProductSnapshot {
  id: string;
  name: string;
  description: string | null;
  active: boolean;
  /** The product metadata's role (key STRIPE_ROLE_METADATA_KEY), lowercased; null without one. */
  role: string | null;
}

export interface PriceSnapshot {
  id: string;
  productId: string;
  active: boolean;
  currency: string;
  unitAmount: number | null;
  interval: string | null;
  intervalCount: number | null;
  /** The product, when Stripe sent it expanded. */
  product: ProductSnapshot | null;
}

export interface SubscriptionSnapshot {
  id: string;
  customerId: string;
  status: string;
  /** The item that decides the role: the first whose product has one, else the first. */
  price: PriceSnapshot | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  /** The member it was bought for (`metadata.lampstand_uid`, set at checkout); null for one made elsewhere. */
  uid: string | null;
}

/** What a webhook event is about, read from its payload once, here: the rest of billing never sees Stripe's shapes. */
export type EventSubject =
  | {
      kind: 'subscription';
      id: string;
      /** A completed checkout's customer and the member it was opened for, to be linked. */
      link: { customerId: string; uid: string } | null;
    }
  | { kind: 'product'; id: string }
  | { kind: 'price'; id: string }
  | { kind: 'none' };

/** A verified webhook event: its identity, time and what it is about. */
export interface BillingEvent {
  id: string;
  type: string;
  created: Date;
  subject: EventSubject;
}

/** The webhook's signature did not verify (wrong secret, altered body, stale timestamp, no header). */
export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

/**
 * The only code that talks to Stripe, through the official SDK, pinned to one API version. Maps
 * Stripe's objects to the snapshots the billing service works with.
 */
export class StripeClient {
  private readonly stripe: Stripe;
  private readonly sdkErrors: typeof Stripe.errors;

  constructor(
    sdk: typeof Stripe,
    secretKey: string,
    private readonly webhookSecret: string,
    private readonly roleMetadataKey: string,
    apiBase: string | undefined,
  ) {
    const base = apiBase === undefined ? undefined : new URL(apiBase);
    this.sdkErrors = sdk.errors;
    this.stripe = new sdk(secretKey, {
      apiVersion: STRIPE_API_VERSION,
      maxNetworkRetries: 2,
      timeout: STRIPE_TIMEOUT_MS,
      telemetry: false,
      ...(base && {
        host: base.hostname,
        port: base.port === '' ? (base.protocol === 'http:' ? 80 : 443) : Number(base.port),
        protocol: base.protocol === 'http:' ? 'http' : 'https',
      }),
    });
  }

  /**
   * A client for the configured keys, or null when billing is off. The SDK (a few hundred modules)
   * is loaded here, so that a server without Stripe keys never loads it and starts sooner.
   */
  static async fromConfig(billing: Config['billing']): Promise<StripeClient | null> {
    const { stripeSecretKey, stripeWebhookSecret } = billing;
    if (stripeSecretKey === undefined || stripeWebhookSecret === undefined) return null;
    const { default: sdk } = await import('stripe');
    return new StripeClient(sdk, stripeSecretKey, stripeWebhookSecret, billing.roleMetadataKey, billing.stripeApiBase);
  }

  /** Verifies the signature over the exact bytes received and parses the event. */
  verifyEvent(rawBody: Buffer, signature: string | undefined): BillingEvent {
    if (signature === undefined || signature === '') throw new WebhookSignatureError('No Stripe-Signature header');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
    } catch (error) {
      throw new WebhookSignatureError(error instanceof Error ? error.message : 'Invalid signature', { cause: error });
    }
    return {
      id: event.id,
      type: event.type,
      created: new Date(event.created * 1000),
      subject: subjectOf(event.type, event.data.object as unknown as Record<string, unknown>),
    };
  }

  /**
   * The member's Stripe customer: the one Stripe already holds for them, or a new one. The
   * idempotency key is the user id, so concurrent or retried calls for one member get the same
   * customer from Stripe instead of a second one.
   */
  async findOrCreateCustomer(uid: string, email: string): Promise<string> {
    // The idempotency key lasts 24 h: a customer made by an attempt whose link was never stored
    // is found by its metadata instead, so a member has one customer for ever.
    const found = await this.stripe.customers.search({
      query: `metadata['${MEMBER_METADATA_KEY}']:'${uid}'`,
      limit: 1,
    });
    const existing = found.data[0];
    if (existing) return existing.id;
    const customer = await this.stripe.customers.create(
      { email, metadata: { [MEMBER_METADATA_KEY]: uid } },
      { idempotencyKey: `lampstand-customer-${uid}` },
    );
    return customer.id;
  }

  /** A Checkout Session for one subscription to `priceId`; returns its URL. */
  async createCheckoutSession(input: {
    customerId: string;
    priceId: string;
    uid: string;
    successUrl: string;
    cancelUrl: string;
  }): Promise<string> {
    const session = await this.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: input.customerId,
      line_items: [{ price: input.priceId, quantity: 1 }],
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      client_reference_id: input.uid,
      metadata: { [MEMBER_METADATA_KEY]: input.uid },
      subscription_data: { metadata: { [MEMBER_METADATA_KEY]: input.uid } },
    });
    if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
    return session.url;
  }

  /** A billing portal session for the customer; returns its URL. */
  async createPortalSession(customerId: string, returnUrl: string): Promise<string> {
    const session = await this.stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
    return session.url;
  }

  /** The subscription's current state, or null when Stripe no longer knows it. */
  async retrieveSubscription(id: string): Promise<SubscriptionSnapshot | null> {
    const subscription = await this.orNullWhenMissing(
      this.stripe.subscriptions.retrieve(id, { expand: ['items.data.price.product'] }),
    );
    if (!subscription) return null;
    const items = subscription.items.data.map((item) => ({
      price: this.toPrice(item.price),
      periodEnd: item.current_period_end,
    }));
    const chosen = items.find((item) => item.price.product?.role != null) ?? items[0];
    return {
      id: subscription.id,
      customerId: idOf(subscription.customer),
      status: subscription.status,
      price: chosen?.price ?? null,
      currentPeriodEnd: chosen ? new Date(chosen.periodEnd * 1000) : null,
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
      uid: memberIdOf(subscription.metadata),
    };
  }

  /** The product's current state, or null when it was deleted. */
  async retrieveProduct(id: string): Promise<ProductSnapshot | null> {
    const product = await this.orNullWhenMissing(this.stripe.products.retrieve(id));
    return product && !isDeleted(product) ? this.toProduct(product) : null;
  }

  /** The price's current state with its product, or null when it is gone. */
  async retrievePrice(id: string): Promise<PriceSnapshot | null> {
    const price = await this.orNullWhenMissing(this.stripe.prices.retrieve(id, { expand: ['product'] }));
    return price ? this.toPrice(price) : null;
  }

  /** Every active price, with its product. */
  async listActivePrices(): Promise<PriceSnapshot[]> {
    const prices: PriceSnapshot[] = [];
    for await (const price of this.stripe.prices.list({ active: true, limit: 100, expand: ['data.product'] })) {
      prices.push(this.toPrice(price));
    }
    return prices;
  }

  /** The customer's subscriptions that have not ended. */
  async listOpenSubscriptions(customerId: string): Promise<string[]> {
    const ids: string[] = [];
    for await (const subscription of this.stripe.subscriptions.list({
      customer: customerId,
      status: 'all',
      limit: 100,
    })) {
      if (!ENDED_STATUSES.has(subscription.status)) ids.push(subscription.id);
    }
    return ids;
  }

  /** Cancels a subscription at once; one that is already gone or canceled is fine. */
  async cancelSubscription(id: string): Promise<void> {
    try {
      await this.stripe.subscriptions.cancel(id);
    } catch (error) {
      if (error instanceof this.sdkErrors.StripeError && (error.statusCode === 404 || error.statusCode === 400)) {
        const current = await this.retrieveSubscription(id);
        if (current === null || ENDED_STATUSES.has(current.status)) return;
      }
      throw error;
    }
  }

  /**
   * Expires the customer's open Checkout Sessions, so that none of them can start a subscription
   * any more. One completed meanwhile is left as it is (its subscription exists by then).
   */
  async expireOpenCheckoutSessions(customerId: string): Promise<void> {
    const open: string[] = [];
    for await (const session of this.stripe.checkout.sessions.list({
      customer: customerId,
      status: 'open',
      limit: 100,
    })) {
      open.push(session.id);
    }
    for (const id of open) {
      try {
        await this.stripe.checkout.sessions.expire(id);
      } catch (error) {
        // Stripe refuses to expire a session that is no longer open.
        if (!(error instanceof this.sdkErrors.StripeError && error.statusCode === 400)) throw error;
        if ((await this.stripe.checkout.sessions.retrieve(id)).status === 'open') throw error;
      }
    }
  }

  /** Stripe answers 404 `resource_missing` for objects it no longer has. */
  private async orNullWhenMissing<T>(request: Promise<T>): Promise<T | null> {
    try {
      return await request;
    } catch (error) {
      if (error instanceof this.sdkErrors.StripeError && error.statusCode === 404) return null;
      throw error;
    }
  }

  private toProduct(product: Stripe.Product): ProductSnapshot {
    const role = product.metadata[this.roleMetadataKey];
    return {
      id: product.id,
      name: product.name,
      description: product.description,
      active: product.active,
      role: role === undefined || role.trim() === '' ? null : role.trim().toLowerCase(),
    };
  }

  private toPrice(price: Stripe.Price): PriceSnapshot {
    const product = typeof price.product === 'string' || isDeleted(price.product) ? null : price.product;
    return {
      id: price.id,
      productId: idOf(price.product),
      active: price.active,
      currency: price.currency,
      unitAmount: price.unit_amount,
      interval: price.recurring?.interval ?? null,
      intervalCount: price.recurring?.interval_count ?? null,
      product: product ? this.toProduct(product) : null,
    };
  }
}

/** The Lampstand member that a Stripe object's metadata names, or null (made elsewhere). */
function memberIdOf(metadata: unknown): string | null {
  if (typeof metadata !== 'object' || metadata === null || !(MEMBER_METADATA_KEY in metadata)) return null;
  const uid = metadata[MEMBER_METADATA_KEY];
  return typeof uid === 'string' && uid !== '' ? uid : null;
}

function idOf(value: string | { id: string }): string {
  return typeof value === 'string' ? value : value.id;
}

function isDeleted(value: Stripe.Product | Stripe.DeletedProduct): value is Stripe.DeletedProduct {
  return 'deleted' in value && value.deleted === true;
}

/** What an event names, by its type: the subscription, product or price whose state to read afresh. */
function subjectOf(type: string, object: Record<string, unknown>): EventSubject {
  const [family] = type.split('.');
  if (type === 'checkout.session.completed' || type === 'checkout.session.async_payment_succeeded') {
    const id = idField(object.subscription);
    const customerId = idField(object.customer);
    // Our own metadata key, not `client_reference_id`: another app on the account may set that.
    const uid = memberIdOf(object.metadata);
    return id ? { kind: 'subscription', id, link: customerId && uid ? { customerId, uid } : null } : { kind: 'none' };
  }
  const id = type.startsWith('customer.subscription.')
    ? idField(object.id)
    : family === 'invoice'
      ? invoiceSubscriptionId(object)
      : null;
  if (id) return { kind: 'subscription', id, link: null };
  if (family === 'product' || family === 'price') {
    const objectId = idField(object.id);
    return objectId ? { kind: family, id: objectId } : { kind: 'none' };
  }
  return { kind: 'none' };
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

/** Runs a Stripe call; a network failure or Stripe outage becomes BILLING_UNAVAILABLE. */
export async function callStripe<T>(call: () => Promise<T>): Promise<T> {
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

/** The Stripe client, or BILLING_NOT_CONFIGURED when the server has no Stripe keys. */
export function requireStripe(stripe: StripeClient | null): StripeClient {
  if (!stripe) throw appError(ErrorCode.BILLING_NOT_CONFIGURED, 'Payments are not set up on this server.');
  return stripe;
}
