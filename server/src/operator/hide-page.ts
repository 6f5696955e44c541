import { codePoints } from '../db/columns.js';
import { badUserInput } from '../graphql/errors.js';
import { UserRecord } from '../members/user.entity.js';
import { audit } from './audit.js';
import { findMember } from './find-member.js';
import type { OperatorCall } from './operator-context.js';
import { inTransaction } from './operator-context.js';

const MAX_REASON_LENGTH = 500;

/**
 * Hides a member's page from visitors with a reason the member sees in Settings and the editor;
 * the member cannot undo it. Hiding a hidden page replaces the reason.
 */
export async function hidePage(
  call: OperatorCall,
  target: string | undefined,
  reason: string | undefined,
): Promise<{ uid: string }> {
  const text = (reason ?? '').trim();
  if (text === '' || codePoints(text) > MAX_REASON_LENGTH) {
    throw badUserInput(`Give a reason of 1 to ${String(MAX_REASON_LENGTH)} characters (--reason).`, 'reason');
  }
  const hidden = await inTransaction(call, async (manager) => {
    const user = await findMember(manager, target);
    await manager.update(UserRecord, { uid: user.uid }, { hiddenReason: text, hiddenAt: new Date() });
    await audit(manager, call, { action: 'hide', target: user.uid, details: { reason: text } });
    return { uid: user.uid };
  });
  // Embeds following the page (profileChanged) end.
  call.deps.pageChanged(hidden.uid);
  return hidden;
}

/** Shows a hidden page again (the member's own switches and any ban still apply). */
export async function unhidePage(call: OperatorCall, target: string | undefined): Promise<{ uid: string }> {
  return inTransaction(call, async (manager) => {
    const user = await findMember(manager, target);
    await manager.update(UserRecord, { uid: user.uid }, { hiddenReason: null, hiddenAt: null });
    await audit(manager, call, { action: 'unhide', target: user.uid, details: { reason: user.hiddenReason } });
    return { uid: user.uid };
  });
}
