import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Stripe from 'stripe';
import type { TestApp } from './app.js';

/** The webhook secret the test apps are configured with. */
export const WEBHOOK_SECRET = 'whsec_lampstand_test_secret';

type StripeObject = Record<string, unknown> & { id: string };

export interface FakeStripe {
  /** The origin to pass as STRIPE_API_BASE. */
  url: string;
  /** Environment that points a test app at this fake. */
  env: Record<string, string>;
  customers: Map<string, StripeObject>;
  products: Map<string, StripeObject>;
  prices: Map<string, StripeObject>;
  subscriptions: Map<string, StripeObject>;
  checkoutSessions: StripeObject[];
  portalSessions: StripeObject[];
  /** Every request received, as `METHOD /path`. */
  requests: string[];
  /** While true, every request fails with a 500 `api_error`, as in a Stripe outage. */
  outage: boolean;
  addProduct(input: { name: string; role?: string | null; active?: boolean }): StripeObject;
  addPrice(input: { product: string; unitAmount: number; interval?: string; active?: boolean }): StripeObject;
  /** Creates or replaces a subscription, as Stripe would after checkout, a renewal or a change. */
  setSubscription(input: {
    id?: string;
    customer: string;
    price: string;
    status: string;
    cancelAtPeriodEnd?: boolean;
    metadata?: Record<string, string>;
  }): StripeObject;
  /**
   * What Stripe does when the customer pays on a Checkout Session: an active subscription carrying
   * the session's `subscription_data.metadata`, and the session complete. Throws, as the payment
   * page would refuse, when the session is no longer open.
   */
  payCheckoutSession(session: StripeObject): StripeObject;
  /** An event as Stripe sends it, carrying a copy of `object` as it is now. */
  event(type: string, object: StripeObject, options?: { created?: number }): Record<string, unknown>;
  close(): Promise<void>;
}

const id = (prefix: string): string => `${prefix}_${randomBytes(8).toString('hex')}`;
const now = (): number => Math.floor(Date.now() / 1000);

async function readBody(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
  response.end(JSON.stringify(body));
}

/** The `prefix[key]=value` fields of a form-encoded body, as Stripe reads metadata. */
function metadataOf(params: URLSearchParams, prefix: string): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [name, value] of params) {
    if (name.startsWith(`${prefix}[`) && name.endsWith(']')) metadata[name.slice(prefix.length + 1, -1)] = value;
  }
  return metadata;
}

function list(url: string, data: unknown[]): Record<string, unknown> {
  return { object: 'list', url, has_more: false, data };
}

/**
 * A loopback stand-in for the few Stripe API endpoints Lampstand calls (customers, checkout and
 * portal sessions, subscriptions, products, prices), speaking Stripe's wire format so that the
 * real SDK talks to it. Idempotency keys replay the first answer, as Stripe does.
 */
export async function startFakeStripe(): Promise<FakeStripe> {
  const customers = new Map<string, StripeObject>();
  const products = new Map<string, StripeObject>();
  const prices = new Map<string, StripeObject>();
  const subscriptions = new Map<string, StripeObject>();
  const checkoutSessions: StripeObject[] = [];
  const portalSessions: StripeObject[] = [];
  const requests: string[] = [];
  const idempotent = new Map<string, { status: number; body: unknown }>();

  const expandedPrice = (price: StripeObject): StripeObject => ({
    ...price,
    product: products.get(String(price.product)) ?? price.product,
  });
  const expandedSubscription = (subscription: StripeObject): StripeObject => {
    const items = subscription.items as { data: StripeObject[] };
    return {
      ...subscription,
      items: {
        ...items,
        data: items.data.map((item) => ({ ...item, price: expandedPrice(item.price as StripeObject) })),
      },
    };
  };

  const missing = (): [number, unknown] => [
    404,
    { error: { type: 'invalid_request_error', code: 'resource_missing' } },
  ];

  /** `GET /v1/checkout/sessions/:id`, `POST …/:id/expire`, and the list filtered by customer and status. */
  function checkoutSessionRoute(method: string, path: string, query: URLSearchParams): [number, unknown] | null {
    const [, , , , sessionId, action] = path.split('/');
    if (method === 'GET' && sessionId === undefined) {
      const found = checkoutSessions.filter(
        (session) =>
          (query.get('customer') === null || session.customer === query.get('customer')) &&
          (query.get('status') === null || session.status === query.get('status')),
      );
      return [200, list(path, found)];
    }
    if (sessionId === undefined) return null;
    const session = checkoutSessions.find((item) => item.id === sessionId);
    if (!session) return missing();
    if (method === 'GET' && action === undefined) return [200, session];
    if (method === 'POST' && action === 'expire') {
      if (session.status !== 'open') {
        const message = `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".`;
        return [400, { error: { type: 'invalid_request_error', message } }];
      }
      Object.assign(session, { status: 'expired', url: null });
      return [200, session];
    }
    return null;
  }

  function route(method: string, path: string, query: URLSearchParams, params: URLSearchParams): [number, unknown] {
    const [, version, resource, second, third] = path.split('/');
    if (version !== 'v1')
      return [404, { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } }];
    if (resource === 'checkout' && second === 'sessions' && !(method === 'POST' && third === undefined)) {
      const answer = checkoutSessionRoute(method, path, query);
      if (answer) return answer;
    }
    if (method === 'GET' && resource === 'customers' && second === 'search') {
      // Only the one query form Lampstand sends: metadata['key']:'value'.
      const match = /^metadata\['([^']+)'\]:'([^']*)'$/.exec(query.get('query') ?? '');
      if (!match) return [400, { error: { type: 'invalid_request_error', message: 'Unsupported search query' } }];
      const [, key = '', value] = match;
      const found = [...customers.values()].filter(
        (customer) => (customer.metadata as Record<string, string>)[key] === value,
      );
      return [200, { object: 'search_result', url: path, has_more: false, next_page: null, data: found }];
    }
    if (method === 'POST' && resource === 'customers' && second === undefined) {
      const customer = {
        id: id('cus'),
        object: 'customer',
        email: params.get('email'),
        metadata: metadataOf(params, 'metadata'),
      };
      customers.set(customer.id, customer);
      return [200, customer];
    }
    if (method === 'POST' && resource === 'checkout' && second === 'sessions') {
      const session = {
        id: id('cs_test'),
        object: 'checkout.session',
        mode: params.get('mode'),
        customer: params.get('customer'),
        client_reference_id: params.get('client_reference_id'),
        metadata: metadataOf(params, 'metadata'),
        subscription_metadata: metadataOf(params, 'subscription_data[metadata]'),
        price: params.get('line_items[0][price]'),
        success_url: params.get('success_url'),
        cancel_url: params.get('cancel_url'),
        status: 'open',
        subscription: null,
        url: '',
      };
      session.url = `https://checkout.stripe.test/c/pay/${session.id}`;
      checkoutSessions.push(session);
      return [200, session];
    }
    if (method === 'POST' && resource === 'billing_portal' && second === 'sessions') {
      const session = {
        id: id('bps'),
        object: 'billing_portal.session',
        customer: params.get('customer'),
        return_url: params.get('return_url'),
        url: `https://billing.stripe.test/p/session/${id('test')}`,
      };
      portalSessions.push(session);
      return [200, session];
    }
    if (resource === 'subscriptions' && second === undefined && method === 'GET') {
      const customer = query.get('customer');
      const found = [...subscriptions.values()].filter((item) => customer === null || item.customer === customer);
      return [200, list(path, found.map(expandedSubscription))];
    }
    if (resource === 'subscriptions' && second !== undefined) {
      const subscription = subscriptions.get(second);
      if (!subscription) return missing();
      if (method === 'DELETE') {
        if (subscription.status === 'canceled') {
          return [400, { error: { type: 'invalid_request_error', message: 'already canceled' } }];
        }
        Object.assign(subscription, { status: 'canceled', canceled_at: now(), ended_at: now() });
      }
      return [200, expandedSubscription(subscription)];
    }
    if (resource === 'products' && second !== undefined && method === 'GET') {
      const product = products.get(second);
      return product ? [200, product] : missing();
    }
    if (resource === 'prices' && method === 'GET') {
      if (second === undefined) {
        const active = [...prices.values()].filter((price) => query.get('active') !== 'true' || price.active === true);
        return [200, list(path, active.map(expandedPrice))];
      }
      const price = prices.get(second);
      return price ? [200, expandedPrice(price)] : missing();
    }
    return [
      404,
      {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method} ${path}${third ?? ''})` },
      },
    ];
  }

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const method = request.method ?? 'GET';
      requests.push(`${method} ${url.pathname}`);
      if (fake.outage) {
        send(response, 500, { error: { type: 'api_error', message: 'An unknown error occurred (injected)' } });
        return;
      }
      const params = await readBody(request);
      const key = request.headers['idempotency-key'];
      const cacheKey = typeof key === 'string' ? `${method} ${url.pathname} ${key}` : null;
      const replay = cacheKey ? idempotent.get(cacheKey) : undefined;
      if (replay) {
        send(response, replay.status, replay.body);
        return;
      }
      const [status, body] = route(method, url.pathname, url.searchParams, params);
      if (cacheKey) idempotent.set(cacheKey, { status, body });
      send(response, status, body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const fake: FakeStripe = {
    url,
    outage: false,
    env: { STRIPE_SECRET_KEY: 'sk_test_lampstand', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: url },
    customers,
    products,
    prices,
    subscriptions,
    checkoutSessions,
    portalSessions,
    requests,
    addProduct({ name, role = 'plus', active = true }) {
      const product = {
        id: id('prod'),
        object: 'product',
        name,
        description: `${name}, for testing`,
        active,
        metadata: role === null ? {} : { role },
        updated: now(),
      };
      products.set(product.id, product);
      return product;
    },
    addPrice({ product, unitAmount, interval = 'month', active = true }) {
      const price = {
        id: id('price'),
        object: 'price',
        product,
        active,
        currency: 'usd',
        unit_amount: unitAmount,
        recurring: { interval, interval_count: 1 },
        type: 'recurring',
      };
      prices.set(price.id, price);
      return price;
    },
    setSubscription({ id: existing, customer, price, status, cancelAtPeriodEnd = false, metadata = {} }) {
      const start = now();
      const subscription = {
        id: existing ?? id('sub'),
        object: 'subscription',
        customer,
        status,
        cancel_at_period_end: cancelAtPeriodEnd,
        metadata,
        items: {
          object: 'list',
          data: [
            {
              id: id('si'),
              object: 'subscription_item',
              price: prices.get(price) ?? { id: price },
              current_period_start: start,
              current_period_end: start + 30 * 24 * 3600,
            },
          ],
        },
      };
      subscriptions.set(subscription.id, subscription);
      return subscription;
    },
    payCheckoutSession(session) {
      if (session.status !== 'open') throw new Error(`checkout session ${session.id} is ${String(session.status)}`);
      const subscription = fake.setSubscription({
        customer: String(session.customer),
        price: String(session.price),
        status: 'active',
        metadata: { ...(session.subscription_metadata as Record<string, string>) },
      });
      Object.assign(session, { status: 'complete', subscription: subscription.id });
      return subscription;
    },
    event(type, object, options = {}) {
      return {
        id: id('evt'),
        object: 'event',
        api_version: '2026-10-28.endive',
        created: options.created ?? now(),
        type,
        livemode: false,
        pending_webhooks: 1,
        data: { object: structuredClone(object) },
      };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => {
          if (error) reject(error);
          else resolve();
        });
      }),
  };
  return fake;
}

export interface Delivery {
  payload: string;
  signature: string;
}

/** Serializes an event as Stripe does (pretty-printed) and signs it with the SDK's test helper. */
export function signEvent(
  event: Record<string, unknown>,
  options: { secret?: string; timestamp?: number } = {},
): Delivery {
  const payload = JSON.stringify(event, null, 2);
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? WEBHOOK_SECRET,
    timestamp: options.timestamp,
  });
  return { payload, signature };
}

/** POSTs a delivery to the app's webhook endpoint; returns the status and body. */
export async function deliver(
  api: TestApp,
  delivery: { payload: string; signature?: string },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (delivery.signature !== undefined) headers['stripe-signature'] = delivery.signature;
  const response = await fetch(`${api.url}/webhooks/stripe`, { method: 'POST', headers, body: delivery.payload });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}
