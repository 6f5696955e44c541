import { codePoints } from '../db/columns.js';
import { appError, badUserInput, ErrorCode } from '../graphql/errors.js';
import { ReportRecord } from '../moderation/moderation.entities.js';
import { isUuid } from '../rules/uuid.js';
import { audit } from './audit.js';
import type { OperatorCall } from './operator-context.js';
import { inTransaction } from './operator-context.js';

const MAX_RESOLUTION_LENGTH = 500;

/** The reports queue, oldest open report first (`all`: resolved ones too). */
export async function listReports(call: OperatorCall, options: { all?: boolean }): Promise<ReportRecord[]> {
  const reports = await call.deps.reports.list({ all: options.all, limit: 200 });
  await inTransaction(call, (manager) =>
    audit(manager, call, {
      action: 'reports',
      target: options.all ? 'all' : 'open',
      details: { count: reports.length },
    }),
  );
  return reports;
}

/** Closes a report with what the operator decided; a report already closed is refused. */
export async function resolveReport(
  call: OperatorCall,
  id: string | undefined,
  resolution: string | undefined,
): Promise<ReportRecord> {
  if (!id || !isUuid(id)) throw badUserInput('Name the report by its id (see `reports`).', 'report');
  const text = (resolution ?? '').trim();
  if (text === '' || codePoints(text) > MAX_RESOLUTION_LENGTH) {
    throw badUserInput(`Say what was decided in 1 to ${String(MAX_RESOLUTION_LENGTH)} characters (--note).`, 'note');
  }
  return inTransaction(call, async (manager) => {
    const report = await manager.findOneBy(ReportRecord, { id: id.toLowerCase() });
    if (!report) throw appError(ErrorCode.NOT_FOUND, `No report has the id ${id}.`);
    if (report.resolvedAt) throw badUserInput(`Report ${id} was already resolved.`, 'report');
    Object.assign(report, { resolvedAt: new Date(), resolvedBy: call.operator, resolution: text });
    await manager.save(report);
    await audit(manager, call, {
      action: 'resolve',
      target: report.id,
      details: { uid: report.uid, resolution: text },
    });
    return report;
  });
}
