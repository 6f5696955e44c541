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
  cache.updateQuery({ query: AuthMeDocument }, (data) =>
    data?.me ? { ...data, me: { ...data.me, profile: { ...data.me.profile, ...profile } } } : data,
  );
}
