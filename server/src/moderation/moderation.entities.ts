import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { timestampColumn } from '../db/columns.js';

/** A visitor's report of a page, waiting in the operators' queue until resolved. */
@Entity({ name: 'reports' })
@Index('IDX_reports_resolved_created', ['resolvedAt', 'createdAt'])
export class ReportRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  /** The reported page's owner (no foreign key: the report outlives a deleted account, for the record). */
  @Index('IDX_reports_uid')
  @Column({ type: 'varchar', length: 36 })
  uid!: string;

  /** The username the page had when reported. */
  @Column({ type: 'varchar', length: 30 })
  username!: string;

  /** One of REPORT_REASONS. */
  @Column({ type: 'varchar', length: 32 })
  reason!: string;

  /** The visitor's own words; empty for none. */
  @Column({ type: 'varchar', length: 500, default: '' })
  note!: string;

  @Column({ ...timestampColumn, name: 'created_at' })
  createdAt!: Date;

  @Column({ ...timestampColumn, name: 'resolved_at', nullable: true })
  resolvedAt!: Date | null;

  /** The operator who resolved it. */
  @Column({ name: 'resolved_by', type: 'varchar', length: 100, nullable: true })
  resolvedBy!: string | null;

  /** What the operator decided, in their words. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  resolution!: string | null;
}

/** One operator action: who did what to whom, when, with what details. Kept after the account goes. */
@Entity({ name: 'audit_log' })
@Index('IDX_audit_log_target_at', ['target', 'at'])
export class AuditRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  /** The operator's name as they gave it (`--operator`, or the OS user running the command). */
  @Column({ type: 'varchar', length: 100 })
  operator!: string;

  /** The OS account that ran the command, whatever `--operator` claims; null on rows before it was kept. */
  @Column({ name: 'os_user', type: 'varchar', length: 100, nullable: true })
  osUser!: string | null;

  /** The machine the command ran on; null on rows before it was kept. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  host!: string | null;

  /** `done`, `refused` (a coded or usage error: nothing changed) or `failed` (an unexpected error). */
  @Column({ type: 'varchar', length: 16, default: 'done' })
  outcome!: string;

  /** The command: `show`, `ban`, `hide`, `delete`, `export`, `resolve`, … */
  @Column({ type: 'varchar', length: 32 })
  action!: string;

  /** The member's uid, a report's id, or the search words of a listing. */
  @Column({ type: 'varchar', length: 255 })
  target!: string;

  /** The action's details as JSON text (reason, ban length, …). */
  @Column({ type: 'text' })
  details!: string;

  @Column(timestampColumn)
  at!: Date;
}

export const moderationEntities = [ReportRecord, AuditRecord];
