import type { Relation } from 'typeorm';
import { Column, Entity, Index, JoinColumn, ManyToOne, OneToOne, PrimaryColumn } from 'typeorm';
import { timestampColumn } from '../db/columns.js';
import { UserRecord } from '../members/user.entity.js';
import { DEFAULT_PRAYER_RETENTION_DAYS } from '../rules/prayer.js';

/** A member's prayer-request button: off until they turn it on. No row reads as the defaults. */
@Entity({ name: 'prayer_settings' })
export class PrayerSettingsRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  uid!: string;

  @OneToOne(() => UserRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'uid', referencedColumnName: 'uid' })
  user?: Relation<UserRecord>;

  @Column({ type: 'boolean', default: false })
  enabled!: boolean;

  /** The words over the form (Plus); null for the standard ones. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  prompt!: string | null;

  /** One mail a day instead of at most one an hour (Plus). */
  @Column({ name: 'daily_digest', type: 'boolean', default: false })
  dailyDigest!: boolean;

  /** One of PRAYER_RETENTION_DAYS (rules/prayer.ts). */
  @Column({ name: 'retention_days', type: 'integer', default: DEFAULT_PRAYER_RETENTION_DAYS })
  retentionDays!: number;

  /** When the member was last told of new requests by mail: the next notice waits an hour (or a day) from it. */
  @Column({ ...timestampColumn, name: 'notified_at', nullable: true })
  notifiedAt!: Date | null;
}

/**
 * A visitor's prayer request to a member. Never public; the reply address is read only by the
 * server, to send the member's reply, and is never part of an API answer.
 */
@Entity({ name: 'prayer_requests' })
@Index('IDX_prayer_requests_uid_created', ['uid', 'createdAt'])
export class PrayerRequestRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'varchar', length: 36 })
  uid!: string;

  @ManyToOne(() => UserRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'uid', referencedColumnName: 'uid' })
  user?: Relation<UserRecord>;

  @Column({ type: 'text' })
  body!: string;

  @Column({ name: 'first_name', type: 'varchar', length: 50, nullable: true })
  firstName!: string | null;

  @Column({ name: 'reply_to', type: 'varchar', length: 254, nullable: true })
  replyTo!: string | null;

  /** The visitor asked that it stay with the member alone. */
  @Column({ name: 'keep_private', type: 'boolean', default: false })
  keepPrivate!: boolean;

  @Column({ ...timestampColumn, name: 'created_at' })
  createdAt!: Date;

  @Column({ ...timestampColumn, name: 'read_at', nullable: true })
  readAt!: Date | null;

  @Column({ ...timestampColumn, name: 'prayed_at', nullable: true })
  prayedAt!: Date | null;

  @Column({ ...timestampColumn, name: 'replied_at', nullable: true })
  repliedAt!: Date | null;

  /** The member reported it as abuse or spam: it leaves the inbox and is kept for the operators until retention ends. */
  @Column({ ...timestampColumn, name: 'reported_at', nullable: true })
  reportedAt!: Date | null;

  /** Told to the member by mail already (a notice or a digest). */
  @Column({ type: 'boolean', default: false })
  notified!: boolean;
}

/**
 * A proof-of-work challenge already spent: a solution is accepted once. Kept until the challenge
 * expires (after that the signature check refuses it anyway).
 */
@Entity({ name: 'prayer_challenges' })
export class PrayerChallengeRecord {
  /** The challenge (a SHA-256 in hex) the solution answered. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  challenge!: string;

  @Index('IDX_prayer_challenges_expires')
  @Column({ ...timestampColumn, name: 'expires_at' })
  expiresAt!: Date;
}

export const prayerEntities = [PrayerSettingsRecord, PrayerRequestRecord, PrayerChallengeRecord];
