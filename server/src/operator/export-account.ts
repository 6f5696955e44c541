import { audit } from './audit.js';
import { findMember } from './find-member.js';
import type { OperatorCall } from './operator-context.js';
import { inTransaction } from './operator-context.js';

/** The same export a member downloads from Settings, for an operator (a request by mail, say). */
export async function exportAccount(call: OperatorCall, target: string | undefined): Promise<Record<string, unknown>> {
  const user = await findMember(call.deps.dataSource.manager, target);
  const data = await call.deps.exports.build(user.uid);
  await inTransaction(call, (manager) => audit(manager, call, { action: 'export', target: user.uid }));
  return data;
}
