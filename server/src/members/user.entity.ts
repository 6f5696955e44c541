import { Column, Entity, PrimaryColumn } from 'typeorm';
import { timestampColumn } from '../db/columns.js';

/** The original's user record, keyed by the identity user id. */
@Entity({ name: 'users' })
export class UserRecord {
  /** The identity user id. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  uid!: string;

  @Column({ type: 'varchar', length: 255 })
  email!: string;

  @Column({ type: 'varchar', length: 50 })
  first!: string;

  /** ISO date `YYYY-MM-DD`, or null when not given. */
  @Column({ type: 'varchar', length: 10, nullable: true })
  birthday!: string | null;

  @Column(timestampColumn)
  joined!: Date;

  /** The kind of client that created the account: `web`, `ios`, `android`, `api`, … */
  @Column({ type: 'varchar', length: 32 })
  platform!: string;

  /** That client's own identifier for the install or app. */
  @Column({ name: 'platform_id', type: 'varchar', length: 128, nullable: true })
  platformID!: string | null;

  /** The billing role (`plus`), kept by the billing service; mirrors the identity's app_metadata. */
  @Column({ name: 'stripe_role', type: 'varchar', length: 32, nullable: true })
  stripeRole!: string | null;

  /** Set when deletion started; the account is gone for everyone from then on. */
  @Column({ ...timestampColumn, name: 'deleting_at', nullable: true })
  deletingAt!: Date | null;

  /** Why an operator hid the member's page; null when not hidden. Only an operator sets or clears it. */
  @Column({ name: 'hidden_reason', type: 'varchar', length: 500, nullable: true })
  hiddenReason!: string | null;

  /** When an operator hid the page; null when not hidden. */
  @Column({ ...timestampColumn, name: 'hidden_at', nullable: true })
  hiddenAt!: Date | null;

  /** Until when the identity account is banned (our copy, written by the operator's ban); null when not. */
  @Column({ ...timestampColumn, name: 'banned_until', nullable: true })
  bannedUntil!: Date | null;
}
