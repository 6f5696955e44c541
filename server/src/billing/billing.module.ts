import type { FastifyBaseLogger } from 'fastify';
import type { DataSource } from 'typeorm';
import type { AuthUser } from '../graphql/context.js';
import type { IdentityClient } from '../identity/identity.client.js';
import { resolver } from '../kernel/feature-module.js';
import type { FeatureModule } from '../kernel/feature-module.js';
import { BillingAccountClosure } from './account-closure.js';
import { billingEntities } from './billing.entities.js';
import { BillingResolver } from './billing.resolver.js';
import { CheckoutService } from './checkout.service.js';
import { ClaimsOutbox } from './claims-outbox.js';
import type { Entitlement } from './entitlement.js';
import type { PlusStanding } from './plus-role.service.js';
import { PlusRoleService } from './plus-role.service.js';
import { StripeClient } from './stripe.client.js';
import { StripeSyncService } from './stripe-sync.service.js';
import { registerStripeWebhook } from './webhook.js';

declare module '../kernel/feature-module.js' {
  interface Services {
    billing: Billing;
  }
}

/** How often a server with billing reviews grace periods and retries unwritten claims. */
const BILLING_MAINTENANCE_INTERVAL_MS = 10 * 60 * 1000;

export interface BillingOptions {
  /** The web app's address: checkout and the portal lead back to its Plus page. */
  publicUrl: string;
  graceDays: number;
  log: FastifyBaseLogger;
  /** Told of each member whose Plus standing was written (the `planChanged` subscription). */
  planWritten?: (uid: string) => void;
}

/** What one upkeep pass did. */
export interface MaintenanceReport {
  reviewed: number;
  claimsWritten: number;
  eventsPruned: number;
}

/**
 * Lampstand Plus through Stripe, assembled: checkout and portal, the Stripe sync behind the
 * webhook, the Plus role with operator grants, the outbox of identity claims, and billing's part
 * in an account's end. Callers outside the feature (jobs, the CLI, tests) use the few methods here.
 */
export class Billing {
  readonly checkout: CheckoutService;
  readonly sync: StripeSyncService;
  readonly roles: PlusRoleService;
  readonly outbox: ClaimsOutbox;
  readonly closure: BillingAccountClosure;
  /** True when Stripe keys are configured. */
  readonly enabled: boolean;

  constructor(
    dataSource: DataSource,
    identity: IdentityClient,
    readonly stripe: StripeClient | null,
    options: BillingOptions,
  ) {
    this.enabled = stripe !== null;
    this.outbox = new ClaimsOutbox(dataSource, identity, options.log, options.planWritten);
    this.roles = new PlusRoleService(dataSource, stripe, this.outbox, options.graceDays);
    this.checkout = new CheckoutService(dataSource, stripe, options.publicUrl, identity);
    this.sync = new StripeSyncService(dataSource, stripe, this.roles, this.outbox, options.log);
    this.closure = new BillingAccountClosure(dataSource, stripe);
  }

  /**
   * Periodic upkeep: members whose `past_due` grace period has run out lose Plus, claims that
   * could not be written to the identity service are written now, and old events are forgotten.
   */
  async runMaintenance(now = new Date()): Promise<MaintenanceReport> {
    const reviewed = await this.roles.reviewGracePeriods(now);
    const claimsWritten = await this.outbox.flushPending();
    return { reviewed, claimsWritten, eventsPruned: await this.sync.pruneEvents(now) };
  }

  /** Reads every active price (and product) from Stripe; see StripeSyncService.syncCatalog. */
  syncCatalog(): Promise<number> {
    return this.sync.syncCatalog();
  }

  /** The member's Plus standing now; see PlusRoleService.standing. */
  standing(actor: AuthUser, now = new Date()): Promise<PlusStanding> {
    return this.roles.standing(actor, now);
  }

  /** Grants Plus to the member with this email; see PlusRoleService.grant. */
  grant(email: string): Promise<{ uid: string; entitlement: Entitlement }> {
    return this.roles.grant(email);
  }

  /** Withdraws an operator's grant; see PlusRoleService.revoke. */
  revoke(email: string): Promise<{ uid: string; entitlement: Entitlement }> {
    return this.roles.revoke(email);
  }
}

/**
 * Plus as a feature of the server. Once listening it reads the Stripe catalog (products made before
 * the webhook existed); then, once per interval across every instance, it ends grace periods that
 * ran out and retries claims the identity service refused (grants made by `npm run plus` too, so
 * this runs without Stripe keys).
 */
export const billingModule: FeatureModule = {
  name: 'billing',
  entities: billingEntities,
  build: async ({ config, dataSource, log, live }, { identity, accountLifecycle }) => {
    const stripe = await StripeClient.fromConfig(config.billing);
    const billing = new Billing(dataSource, identity.client, stripe, {
      publicUrl: config.publicUrl,
      graceDays: config.billing.graceDays,
      log,
      planWritten: (uid) => {
        live.publish('planChanged', uid, {});
      },
    });
    // Billing's part in an account's end comes before any hook handed in.
    accountLifecycle.unshift(billing.closure);
    return { billing };
  },
  resolvers: [resolver(BillingResolver, ({ billing }) => new BillingResolver(billing.checkout, billing.roles))],
  routes: (server, { billing }, { background }) => {
    registerStripeWebhook(server, billing.stripe, billing.sync);
    if (!background || !billing.enabled) return;
    server.addHook('onListen', () => {
      billing
        .syncCatalog()
        .then((prices) => {
          server.log.info({ prices }, 'billing: Stripe catalog read');
        })
        .catch((error: unknown) => {
          server.log.error({ err: error }, 'billing: could not read the Stripe catalog; webhooks will bring it');
        });
    });
  },
  jobs: ({ billing }) => [
    {
      name: 'billing-upkeep',
      intervalMs: BILLING_MAINTENANCE_INTERVAL_MS,
      run: async () => {
        await billing.runMaintenance();
      },
    },
  ],
};
