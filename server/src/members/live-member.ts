import type { GraphQLError } from 'graphql';
import { unauthenticated } from '../graphql/errors.js';
import { isLiveMember } from '../rules/page-access.js';

/** The refusal a caller gets when their member record is missing or being deleted. */
export function memberGone(message = 'Your account no longer exists.'): GraphQLError {
  return unauthenticated(message);
}

/** The member record if the member is live, else UNAUTHENTICATED (see `isLiveMember`, rules/page-access.ts). */
export function requireLiveMember<T extends { deletingAt: Date | null }>(
  member: T | null | undefined,
  message?: string,
): T {
  if (!isLiveMember(member)) throw memberGone(message);
  return member;
}
