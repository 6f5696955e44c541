import { JobLeaseRecord } from '../jobs/job-lease.entity.js';
import { MailOutboxRecord } from '../mail/outbox.entity.js';
import { modules } from './modules.js';

/** Every TypeORM entity; migrations in db/migrations/<dialect>/ must produce exactly these tables. */
export const entities = [JobLeaseRecord, MailOutboxRecord, ...modules.flatMap((module) => module.entities ?? [])];
