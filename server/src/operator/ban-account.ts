import { appError, badUserInput, ErrorCode } from '../graphql/errors.js';
import { IdentityError } from '../identity/identity.client.js';
import { UserRecord } from '../members/user.entity.js';
import { audit } from './audit.js';
import { findMember } from './find-member.js';
import type { OperatorCall } from './operator-context.js';
import { inTransaction } from './operator-context.js';

/** Supabase Auth's way of saying "for good": a ban of about a hundred years. */
const FOREVER_HOURS = 876_000;
const MAX_BAN_HOURS = FOREVER_HOURS;

/** The hours of `--hours`, or a ban for good when not given. */
function banHours(hours: number | undefined): number {
  if (hours === undefined) return FOREVER_HOURS;
  if (!Number.isInteger(hours) || hours < 1 || hours > MAX_BAN_HOURS) {
    throw badUserInput(`--hours must be a whole number from 1 to ${String(MAX_BAN_HOURS)}.`, 'hours');
  }
  return hours;
}

/** Answers a refusal of the identity service as the operator's coded error. */
export function identityRefused(error: unknown): never {
  if (error instanceof IdentityError) {
    throw appError(ErrorCode.IDENTITY_UNAVAILABLE, `The identity service refused the change (${error.code}).`, {
      identityCode: error.code,
    });
  }
  throw error;
}

/**
 * Bans an account through the identity admin API (no sign-in, no token refresh), ends its
 * sessions, and hides its page while the ban lasts (our copy of `banned_until`, with the audit row
 * in one transaction once the identity service took the ban).
 */
export async function banAccount(
  call: OperatorCall,
  target: string | undefined,
  options: { hours?: number; reason?: string },
): Promise<{ uid: string; bannedUntil: Date; sessionsEnded: number | null }> {
  const hours = banHours(options.hours);
  const user = await findMember(call.deps.dataSource.manager, target);
  const bannedUntil = new Date(Date.now() + hours * 3_600_000);
  await call.deps.identity.updateUserById(user.uid, { banDuration: `${String(hours)}h` }).catch(identityRefused);
  await inTransaction(call, async (manager) => {
    await manager.update(UserRecord, { uid: user.uid }, { bannedUntil });
    await audit(manager, call, {
      action: 'ban',
      target: user.uid,
      details: { hours, bannedUntil: bannedUntil.toISOString(), reason: options.reason ?? null },
    });
  });
  const sessionsEnded = call.deps.endSessions ? await call.deps.endSessions(user.uid) : null;
  return { uid: user.uid, bannedUntil, sessionsEnded };
}

/** Lifts a ban at the identity service and shows the page again (unless it is hidden). */
export async function unbanAccount(call: OperatorCall, target: string | undefined): Promise<{ uid: string }> {
  const user = await findMember(call.deps.dataSource.manager, target);
  await call.deps.identity.updateUserById(user.uid, { banDuration: 'none' }).catch(identityRefused);
  await inTransaction(call, async (manager) => {
    await manager.update(UserRecord, { uid: user.uid }, { bannedUntil: null });
    await audit(manager, call, { action: 'unban', target: user.uid });
  });
  return { uid: user.uid };
}
