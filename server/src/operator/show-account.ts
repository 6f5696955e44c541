import { IdentityError } from '../identity/identity.client.js';
import { LinkRecord } from '../links/link.entity.js';
import { ReportRecord } from '../moderation/moderation.entities.js';
import { ProfileRecord } from '../profiles/profile.entity.js';
import { isOpenByOwner, pageHold } from '../rules/page-access.js';
import { planName } from '../rules/plan.js';
import { audit } from './audit.js';
import { findMember } from './find-member.js';
import { memberState } from './list-signups.js';
import type { OperatorCall } from './operator-context.js';
import { inTransaction } from './operator-context.js';

/** One account as an operator sees it: records, identity facts, moderation state and reports. */
export async function showAccount(call: OperatorCall, target: string | undefined): Promise<Record<string, unknown>> {
  const found = await inTransaction(call, async (manager) => {
    const user = await findMember(manager, target);
    const [profile, links, reports] = await Promise.all([
      manager.findOneBy(ProfileRecord, { uid: user.uid }),
      manager.countBy(LinkRecord, { uid: user.uid }),
      manager.find(ReportRecord, { where: { uid: user.uid }, order: { createdAt: 'DESC' }, take: 20 }),
    ]);
    await audit(manager, call, { action: 'show', target: user.uid });
    return { user, profile, links, reports };
  });
  const { user, profile, links, reports } = found;
  const identity = await call.deps.identity.getUserById(user.uid).then(
    (account) => ({ emailConfirmedAt: account.emailConfirmedAt, createdAt: account.createdAt }),
    (error: unknown) => {
      if (error instanceof IdentityError) return { error: error.code };
      throw error;
    },
  );
  return {
    uid: user.uid,
    email: user.email,
    firstName: user.first,
    joined: user.joined,
    platform: user.platform,
    plan: planName(user.stripeRole),
    state: memberState(user),
    hold: pageHold(user),
    username: profile?.username ?? null,
    name: profile?.name ?? null,
    visibleByOwnChoice: profile ? isOpenByOwner(profile) : false,
    links,
    identity,
    reports: reports.map((report) => ({
      id: report.id,
      reason: report.reason,
      note: report.note,
      createdAt: report.createdAt,
      resolvedAt: report.resolvedAt,
    })),
  };
}
