import { identityRefused } from './ban-account.js';
import { audit } from './audit.js';
import { findMember } from './find-member.js';
import type { OperatorCall } from './operator-context.js';
import { inTransaction } from './operator-context.js';

/**
 * Turns two-factor sign-in off for a member who lost their phone, after the operator has checked
 * who they are: every factor of the account is deleted at the identity service, so the password
 * alone signs in again and the member can set up a new app. The audit row names the factors.
 */
export async function removeTwoFactor(
  call: OperatorCall,
  target: string | undefined,
): Promise<{ uid: string; removed: number }> {
  const user = await findMember(call.deps.dataSource.manager, target);
  const account = await call.deps.identity.getUserById(user.uid).catch(identityRefused);
  for (const factor of account.factors) {
    await call.deps.identity.deleteFactorById(user.uid, factor.id).catch(identityRefused);
  }
  await inTransaction(call, async (manager) => {
    await audit(manager, call, {
      action: 'remove-2fa',
      target: user.uid,
      details: { factors: account.factors.map((factor) => ({ id: factor.id, status: factor.status })) },
    });
  });
  return { uid: user.uid, removed: account.factors.length };
}
