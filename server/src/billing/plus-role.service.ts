import type { DataSource, EntityManager } from 'typeorm';
import type { AuthUser } from '../graphql/context.js';
import { badUserInput } from '../graphql/errors.js';
import { isLiveMember } from '../rules/page-access.js';
import { isPlus } from '../members/plus.js';
import { PLUS_ROLE } from '../rules/plan.js';
import { UserRecord } from '../members/user.entity.js';
import { BillingCustomerRecord, BillingGrantRecord, BillingSubscriptionRecord } from './billing.entities.js';
import type { ClaimsOutbox } from './claims-outbox.js';
import { queueClaim } from './claims-outbox.js';
import type { Entitlement } from './entitlement.js';
import { entitlementOf, GRANTING_STATUSES } from './entitlement.js';
import type { StripeClient } from './stripe.client.js';
import { requireStripe } from './stripe.client.js';

/** A member's Plus standing: the rule's verdict and the subscription that matters most. */
export interface PlusStanding {
  /** The stored verdict (`users.stripe_role`), which `me.plan` and every Plus feature read. */
  plus: boolean;
  /** The rule applied now, for `granted` and `graceEndsAt`; `plus` follows it at the next refresh. */
  entitlement: Entitlement;
  subscription: BillingSubscriptionRecord | null;
  hasCustomer: boolean;
}

/**
 * The Plus role: applies the Plus rule to a member (subscriptions and operator grants) and stores
 * the verdict in `users.stripe_role`, queueing the identity claim when it changed; operator grants
 * and revocations; the end of grace periods; and a member's standing for the API.
 */
export class PlusRoleService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly stripe: StripeClient | null,
    private readonly outbox: ClaimsOutbox,
    private readonly graceDays: number,
  ) {}

  /** The member's Plus standing now. */
  async standing(actor: AuthUser, now = new Date()): Promise<PlusStanding> {
    requireStripe(this.stripe);
    const [user, subscriptions, granted, customer] = await Promise.all([
      this.dataSource.getRepository(UserRecord).findOneBy({ uid: actor.id }),
      this.dataSource.getRepository(BillingSubscriptionRecord).findBy({ uid: actor.id }),
      this.dataSource.getRepository(BillingGrantRecord).existsBy({ uid: actor.id }),
      this.dataSource.getRepository(BillingCustomerRecord).existsBy({ uid: actor.id }),
    ]);
    return {
      plus: user !== null && isPlus(user),
      entitlement: entitlementOf({ granted, subscriptions }, now, this.graceDays),
      subscription: mostRelevant(subscriptions),
      hasCustomer: customer,
    };
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

  /** Members whose `past_due` grace period has run out lose Plus; returns how many were reviewed. */
  async reviewGracePeriods(now = new Date()): Promise<number> {
    const pastDue = await this.dataSource
      .getRepository(BillingSubscriptionRecord)
      .find({ select: { uid: true }, where: { status: 'past_due', role: PLUS_ROLE } });
    const uids = [...new Set(pastDue.map((item) => item.uid))];
    for (const uid of uids) {
      await this.dataSource.transaction((manager) => this.refresh(manager, uid, now));
    }
    return uids.length;
  }

  /**
   * Applies the Plus rule to the member: writes `users.stripe_role` and, when it changed, queues
   * the claim for the identity account, in the caller's transaction. The user row is locked
   * first, so that two transactions changing the member's grant and subscriptions at once
   * (READ COMMITTED on PostgreSQL) cannot each miss the other's change and write a wrong role.
   */
  async refresh(manager: EntityManager, uid: string, now: Date): Promise<Entitlement> {
    // SQLite has no row locks, nor needs them: its transactions already run one at a time (db/sqlite-serial.ts).
    const rowLocks = manager.dataSource.options.type === 'postgres';
    const user = await manager.findOne(UserRecord, {
      where: { uid },
      ...(rowLocks && { lock: { mode: 'pessimistic_write' as const } }),
    });
    // One after another: a transaction is one connection, which runs one query at a time.
    const subscriptions = await manager.findBy(BillingSubscriptionRecord, { uid });
    const granted = await manager.existsBy(BillingGrantRecord, { uid });
    const entitlement = entitlementOf({ granted, subscriptions }, now, this.graceDays);
    if (user && user.stripeRole !== entitlement.role) {
      await manager.update(UserRecord, { uid }, { stripeRole: entitlement.role });
      await queueClaim(manager, uid);
    }
    return entitlement;
  }

  private async changeGrant(
    email: string,
    change: (manager: EntityManager, uid: string) => Promise<void>,
  ): Promise<{ uid: string; entitlement: Entitlement }> {
    const user = await this.dataSource.getRepository(UserRecord).findOneBy({ email: email.trim().toLowerCase() });
    if (!isLiveMember(user)) throw badUserInput(`No member has the email address ${email.trim()}.`, 'email');
    const entitlement = await this.dataSource.transaction(async (manager) => {
      await change(manager, user.uid);
      return this.refresh(manager, user.uid, new Date());
    });
    await this.outbox.flush([user.uid]);
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
