import { audit } from './audit.js';
import { findMember } from './find-member.js';
import type { OperatorCall } from './operator-context.js';
import { inTransaction } from './operator-context.js';

/**
 * Deletes an account the way a member's own deletion does: billing may refuse first (changing
 * nothing); then the records are marked (the page disappears), billing stops, the identity account
 * goes, then the records. An interrupted run is finished by running it again or by the reconciliation.
 */
export async function deleteAccount(
  call: OperatorCall,
  target: string | undefined,
  options: { reason?: string },
): Promise<{ uid: string; email: string }> {
  const user = await findMember(call.deps.dataSource.manager, target);
  for (const hook of call.deps.lifecycle) await hook.checkDeletable(user.uid);
  await inTransaction(call, async (manager) => {
    await audit(manager, call, {
      action: 'delete',
      target: user.uid,
      details: { email: user.email, reason: options.reason ?? null },
    });
  });
  await call.deps.records.markDeleting(user.uid);
  await call.deps.records.finishDeletion(user.uid);
  return { uid: user.uid, email: user.email };
}
