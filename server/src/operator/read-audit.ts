import { MoreThanOrEqual } from 'typeorm';
import { badUserInput } from '../graphql/errors.js';
import { AuditRecord } from '../moderation/moderation.entities.js';
import { audit } from './audit.js';
import type { OperatorCall } from './operator-context.js';
import { inTransaction } from './operator-context.js';

const MAX_LIMIT = 1000;

/**
 * The audit log, newest first: at most `limit` rows (50 by default), from `since` on when given.
 * Reading it is written in it too, after the rows read, so that the listing never shows itself.
 */
export async function readAudit(call: OperatorCall, options: { since?: Date; limit?: number }): Promise<AuditRecord[]> {
  const limit = options.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw badUserInput(`--limit must be a whole number from 1 to ${String(MAX_LIMIT)}.`, 'limit');
  }
  if (options.since !== undefined && Number.isNaN(options.since.getTime())) {
    throw badUserInput('--since must be a date and time, or a duration such as 24h or 7d.', 'since');
  }
  return inTransaction(call, async (manager) => {
    const rows = await manager.getRepository(AuditRecord).find({
      where: options.since === undefined ? {} : { at: MoreThanOrEqual(options.since) },
      order: { at: 'DESC', id: 'ASC' },
      take: limit,
    });
    await audit(manager, call, {
      action: 'audit',
      target: '',
      details: { since: options.since?.toISOString() ?? null, limit, rows: rows.length },
    });
    return rows;
  });
}
