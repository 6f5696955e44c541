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

/** How a command ended: it did its work, it was refused (nothing changed), or it broke. */
export type AuditOutcome = 'done' | 'refused' | 'failed';

function auditRow(call: OperatorCall, entry: AuditEntry, outcome: AuditOutcome): AuditRecord {
  return Object.assign(new AuditRecord(), {
    id: randomUUID(),
    operator: call.operator,
    osUser: call.origin.osUser.slice(0, 100),
    host: call.origin.host.slice(0, 255),
    outcome,
    action: entry.action.slice(0, 32),
    target: entry.target.slice(0, 255),
    details: JSON.stringify(entry.details ?? {}),
    at: new Date(),
  });
}

/** Writes one audit row with `manager`: inside the transaction of the change it records. */
export async function audit(manager: EntityManager, call: OperatorCall, entry: AuditEntry): Promise<AuditRecord> {
  return manager.save(auditRow(call, entry, 'done'));
}

/**
 * Writes the row of a command that was refused or failed, on its own: the change it asked for
 * was not made (or not completely), and the attempt is kept all the same.
 */
export async function auditAttempt(
  call: OperatorCall,
  entry: AuditEntry,
  outcome: Exclude<AuditOutcome, 'done'>,
): Promise<AuditRecord> {
  return call.deps.dataSource.manager.save(auditRow(call, entry, outcome));
}
