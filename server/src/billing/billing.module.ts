import type { FastifyBaseLogger } from 'fastify';
import type { DataSource } from 'typeorm';
import type { AuthUser } from '../graphql/context.js';
import type { IdentityClient } from '../identity/identity.client.js';
import { BillingAccountClosure } from './account-closure.js';
import { CheckoutService } from './checkout.service.js';
import { ClaimsOutbox } from './claims-outbox.js';
import type { Entitlement } from './entitlement.js';
import type { PlusStanding } from './plus-role.service.js';
import { PlusRoleService } from './plus-role.service.js';
import type { StripeClient } from './stripe.client.js';
import { StripeSyncService } from './stripe-sync.service.js';

export interface BillingOptions {
  /** The web app's address: checkout and the portal lead back to its Plus page. */
  publicUrl: string;
  graceDays: number;
  log: FastifyBaseLogger;
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

  constructor(dataSource: DataSource, identity: IdentityClient, stripe: StripeClient | null, options: BillingOptions) {
    this.enabled = stripe !== null;
    this.outbox = new ClaimsOutbox(dataSource, identity, options.log);
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
