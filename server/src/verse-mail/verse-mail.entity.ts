import type { Relation } from 'typeorm';
import { Column, Entity, Index, JoinColumn, OneToOne, ManyToOne, PrimaryColumn } from 'typeorm';
import { timestampColumn } from '../db/columns.js';
import { UserRecord } from '../members/user.entity.js';

/** A member's wish for the verse of the day by mail, at `hour` o'clock in `time_zone`. */
@Entity({ name: 'verse_mail_subscriptions' })
export class VerseMailSubscriptionRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  uid!: string;

  @OneToOne(() => UserRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'uid', referencedColumnName: 'uid' })
  user?: Relation<UserRecord>;

  /** 0–23, in the member's time zone. */
  @Column({ type: 'integer' })
  hour!: number;

  @Column({ name: 'time_zone', type: 'varchar', length: 64 })
  timeZone!: string;

  @Column({ ...timestampColumn, name: 'created_at' })
  createdAt!: Date;
}

/**
 * One member's mail for one day, claimed before it is sent so that two instances or a retry never
 * send it twice: `sending` until the transport accepts it, then `sent`. A claim whose
 * `claimed_until` has passed (a failed send, or an instance that died) may be claimed again.
 */
@Entity({ name: 'verse_mail_sends' })
export class VerseMailSendRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  uid!: string;

  @ManyToOne(() => UserRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'uid', referencedColumnName: 'uid' })
  user?: Relation<UserRecord>;

  /** The member's local date the mail is for (ISO). */
  @PrimaryColumn({ type: 'varchar', length: 10 })
  day!: string;

  @Column({ type: 'varchar', length: 8 })
  status!: 'sending' | 'sent';

  @Column({ type: 'integer' })
  attempts!: number;

  @Column({ ...timestampColumn, name: 'claimed_until' })
  claimedUntil!: Date;

  /** SHA-256 (hex) of the unsubscribe token the mail carries; the token itself is never stored. */
  @Index('IDX_verse_mail_sends_unsubscribe', { unique: true })
  @Column({ name: 'unsubscribe_hash', type: 'varchar', length: 64 })
  unsubscribeHash!: string;
}
