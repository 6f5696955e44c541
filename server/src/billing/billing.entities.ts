import type { Relation } from 'typeorm';
import { Column, Entity, Index, JoinColumn, ManyToOne, OneToOne, PrimaryColumn } from 'typeorm';
import { UserRecord } from '../members/user.entity.js';
import { timestampColumn } from '../db/columns.js';

/** A member's Stripe customer: one per member (the primary key), one member per customer (unique). */
@Entity({ name: 'billing_customers' })
export class BillingCustomerRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  uid!: string;

  @OneToOne(() => UserRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'uid', referencedColumnName: 'uid' })
  user?: Relation<UserRecord>;

  @Index('UQ_billing_customers_customer', { unique: true })
  @Column({ name: 'customer_id', type: 'varchar', length: 255 })
  customerId!: string;

  @Column({ ...timestampColumn, name: 'created_at' })
  createdAt!: Date;
}

/** A Stripe product as last read from Stripe; `role` comes from its metadata (STRIPE_ROLE_METADATA_KEY). */
@Entity({ name: 'billing_products' })
export class BillingProductRecord {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  id!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ type: 'boolean' })
  active!: boolean;

  @Column({ type: 'varchar', length: 32, nullable: true })
  role!: string | null;

  /** When this state was read from Stripe; an older read never overwrites a newer one. */
  @Column({ ...timestampColumn, name: 'synced_at' })
  syncedAt!: Date;
}

/** A Stripe price as last read from Stripe. */
@Entity({ name: 'billing_prices' })
export class BillingPriceRecord {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  id!: string;

  /** No foreign key: Stripe may tell of a price before its product. */
  @Index('IDX_billing_prices_product')
  @Column({ name: 'product_id', type: 'varchar', length: 255 })
  productId!: string;

  @Column({ type: 'boolean' })
  active!: boolean;

  @Column({ type: 'varchar', length: 3 })
  currency!: string;

  /** In the currency's smallest unit (cents); null for prices without a fixed amount. */
  @Column({ name: 'unit_amount', type: 'integer', nullable: true })
  unitAmount!: number | null;

  /** `day`, `week`, `month` or `year`; null for one-time prices. */
  @Column({ type: 'varchar', length: 8, nullable: true })
  interval!: string | null;

  @Column({ name: 'interval_count', type: 'integer', nullable: true })
  intervalCount!: number | null;

  @Column({ ...timestampColumn, name: 'synced_at' })
  syncedAt!: Date;
}

/** A member's Stripe subscription as last read from Stripe. */
@Entity({ name: 'billing_subscriptions' })
export class BillingSubscriptionRecord {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  id!: string;

  @Index('IDX_billing_subscriptions_uid')
  @Column({ type: 'varchar', length: 36 })
  uid!: string;

  @ManyToOne(() => UserRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'uid', referencedColumnName: 'uid' })
  user?: Relation<UserRecord>;

  @Column({ name: 'customer_id', type: 'varchar', length: 255 })
  customerId!: string;

  /** Stripe's status: `active`, `trialing`, `past_due`, `canceled`, `unpaid`, `incomplete`, … */
  @Column({ type: 'varchar', length: 32 })
  status!: string;

  @Column({ name: 'price_id', type: 'varchar', length: 255, nullable: true })
  priceId!: string | null;

  /** The role of the price's product when the subscription was last read. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  role!: string | null;

  @Column({ ...timestampColumn, name: 'current_period_end', nullable: true })
  currentPeriodEnd!: Date | null;

  @Column({ name: 'cancel_at_period_end', type: 'boolean' })
  cancelAtPeriodEnd!: boolean;

  /** When we first saw it `past_due` (the grace period runs from here); null in any other status. */
  @Column({ ...timestampColumn, name: 'past_due_since', nullable: true })
  pastDueSince!: Date | null;

  @Column({ ...timestampColumn, name: 'synced_at' })
  syncedAt!: Date;
}

/** Every Stripe event handled, recorded in the same transaction as its effect. */
@Entity({ name: 'billing_events' })
export class BillingEventRecord {
  @PrimaryColumn({ type: 'varchar', length: 255 })
  id!: string;

  @Column({ type: 'varchar', length: 100 })
  type!: string;

  /** The event's own time (Stripe's `created`). */
  @Column({ ...timestampColumn, name: 'created_at' })
  createdAt!: Date;

  @Column({ ...timestampColumn, name: 'processed_at' })
  processedAt!: Date;

  /** The member the event concerned, if any: a redelivery retries their claim write. */
  @Column({ type: 'varchar', length: 36, nullable: true })
  uid!: string | null;
}

/** Plus granted by an operator (`npm run plus -- grant`), independent of Stripe. */
@Entity({ name: 'billing_grants' })
export class BillingGrantRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  uid!: string;

  @OneToOne(() => UserRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'uid', referencedColumnName: 'uid' })
  user?: Relation<UserRecord>;

  @Column({ ...timestampColumn, name: 'granted_at' })
  grantedAt!: Date;
}

/**
 * Members whose `users.stripe_role` changed and whose identity account's `app_metadata.stripeRole`
 * is not yet written: queued in the transaction that changed the role, removed once written.
 */
@Entity({ name: 'billing_pending_claims' })
export class BillingPendingClaimRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  uid!: string;

  @OneToOne(() => UserRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'uid', referencedColumnName: 'uid' })
  user?: Relation<UserRecord>;

  @Column({ ...timestampColumn, name: 'queued_at' })
  queuedAt!: Date;
}

export const billingEntities = [
  BillingCustomerRecord,
  BillingProductRecord,
  BillingPriceRecord,
  BillingSubscriptionRecord,
  BillingEventRecord,
  BillingGrantRecord,
  BillingPendingClaimRecord,
];
