import type { EntityManager } from 'typeorm';
import { keyLookup } from '../db/key-lookup.js';
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
  // Key lookups: their SQL is written once, where `findOneBy` runs the query builder each time
  // (a tenth of an edit's CPU). A locked read stays with TypeORM, which writes `FOR UPDATE`.
  const { dataSource } = manager;
  const [owner = null] = await keyLookup(dataSource, UserRecord, 'uid')([actor.id], manager);
  const lock = options.lock === true && dataSource.options.type === 'postgres';
  const [profile = null] = lock
    ? [await manager.findOne(ProfileRecord, { where: { uid: actor.id }, lock: { mode: 'pessimistic_write' } })]
    : await keyLookup(dataSource, ProfileRecord, 'uid')([actor.id], manager);
  // The null checks repeat what the rule established, for the types.
  if (!canChangePage(actor, { profile, owner }).allowed || !profile || !owner) throw memberGone();
  return { owner, profile };
}
