import { Column, Entity, PrimaryColumn } from 'typeorm';
import { timestampColumn } from '../db/columns.js';

/** When a background job may next run, shared by every server instance on the database. */
@Entity({ name: 'job_leases' })
export class JobLeaseRecord {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  name!: string;

  /** No instance starts the job again before this time. */
  @Column({ name: 'next_run_at', ...timestampColumn })
  nextRunAt!: Date;
}
