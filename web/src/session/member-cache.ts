import type { ApolloCache } from '@apollo/client';
import type { AuthProfile_ProfileFragment } from './session.generated';
import { AuthMeDocument } from './session.generated';

/** The signed-in member's profile as the cache holds it now; null before `me` has arrived. */
export function readMeProfile(cache: ApolloCache): AuthProfile_ProfileFragment | null {
  return cache.readQuery({ query: AuthMeDocument })?.me?.profile ?? null;
}

/**
 * Puts a profile the API answered into the signed-in member (`me`), so that every screen reading
 * `useAuth()` shows it at once. Wrapper hooks of profile mutations call this from `update`.
 */
export function writeMeProfile(cache: ApolloCache, profile: AuthProfile_ProfileFragment): void {
  cache.updateQuery({ query: AuthMeDocument }, (data) => withMeProfile(data, profile));
}

type MeData = { me?: { profile: object } | null } | null;

/**
 * A query's answer with the signed-in member's profile changed by `change`, for `cache.updateQuery`;
 * unchanged while `me` has not arrived.
 */
export function withMeProfile<Data extends MeData>(
  data: Data,
  change: Partial<NonNullable<NonNullable<Data>['me']>['profile']>,
): Data {
  if (!data?.me) return data;
  return { ...data, me: { ...data.me, profile: { ...data.me.profile, ...change } } };
}
