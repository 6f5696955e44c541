import type { GraphQLError } from 'graphql';
import { unauthenticated } from '../graphql/errors.js';
import type { UserRecord } from './user.entity.js';

/** What the live-member rule reads of a member record. */
type MemberState = Pick<UserRecord, 'deletingAt'>;

/**
 * The live-member rule: a member being deleted is gone. From the moment deletion starts
 * (`deleting_at` is set) the member's page, links, stats, billing and sessions behave as if the
 * account did not exist, even while the identity account and the records are still being removed.
 */
export function isLiveMember<T extends MemberState>(member: T | null | undefined): member is T & { deletingAt: null } {
  return member != null && !member.deletingAt;
}

/** The refusal a caller gets when their member record is missing or being deleted. */
export function memberGone(message = 'Your account no longer exists.'): GraphQLError {
  return unauthenticated(message);
}

/** The member record if the member is live, else UNAUTHENTICATED (see `isLiveMember`). */
export function requireLiveMember<T extends MemberState>(member: T | null | undefined, message?: string): T {
  if (!isLiveMember(member)) throw memberGone(message);
  return member;
}
