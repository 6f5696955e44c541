import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../graphql/context.js';
import { memberGone } from '../members/live-member.js';
import { UserRecord } from '../members/user.entity.js';
import { canChangePage } from '../rules/page-access.js';
import { ProfileRecord } from './profile.entity.js';

/** The caller's page and member record, read in the caller's transaction. */
export interface OwnPage {
  owner: UserRecord;
  profile: ProfileRecord;
}

/**
 * The caller's page, read in `manager`'s transaction, or UNAUTHENTICATED when the page rule
 * (`canChangePage`) refuses: no page, or a member gone or leaving. With `lock`, the page's row is
 * locked on PostgreSQL so that concurrent changes to it take turns (SQLite's transactions already do).
 */
export async function requireOwnPage(
  manager: EntityManager,
  actor: AuthUser,
  options: { lock?: boolean } = {},
): Promise<OwnPage> {
  const owner = await manager.findOneBy(UserRecord, { uid: actor.id });
  const lock =
    options.lock === true && manager.dataSource.options.type === 'postgres'
      ? { mode: 'pessimistic_write' as const }
      : undefined;
  const profile = await manager.findOne(ProfileRecord, { where: { uid: actor.id }, lock });
  // The null checks repeat what the rule established, for the types.
  if (!canChangePage(actor, { profile, owner }).allowed || !profile || !owner) throw memberGone();
  return { owner, profile };
}
