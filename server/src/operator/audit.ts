import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { AuditRecord } from '../moderation/moderation.entities.js';
import type { OperatorCall } from './operator-context.js';

/** What an audit row records besides who and when. */
export interface AuditEntry {
  action: string;
  target: string;
  details?: Record<string, unknown>;
}

/** Writes one audit row with `manager`: inside the transaction of the change it records. */
export async function audit(manager: EntityManager, call: OperatorCall, entry: AuditEntry): Promise<AuditRecord> {
  return manager.save(
    Object.assign(new AuditRecord(), {
      id: randomUUID(),
      operator: call.operator,
      action: entry.action,
      target: entry.target.slice(0, 255),
      details: JSON.stringify(entry.details ?? {}),
      at: new Date(),
    }),
  );
}
