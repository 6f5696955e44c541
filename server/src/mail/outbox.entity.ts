import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMs } from '../db/columns.js';

/** A message kept by the development outbox instead of being sent (no SMTP_URL). */
@Entity({ name: 'mail_outbox' })
export class MailOutboxRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Index('mail_outbox_recipient_idx')
  @Column({ type: 'varchar', length: 320 })
  recipient!: string;

  @Column({ type: 'varchar', length: 255 })
  subject!: string;

  @Column({ type: 'text' })
  text!: string;

  @Column({ type: 'text' })
  html!: string;

  /** The action link of the message, if it has one. */
  @Column({ type: 'text', nullable: true })
  link!: string | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs })
  createdAt!: Date;
}
