import { skipToken, useQuery } from '@apollo/client/react';
import { normalUsername } from '@rules/names';
import { useEffect, useState } from 'react';
import { usernameProblem } from '../../lib/validation';
import { ANONYMOUS } from '../../session/auth-link';
import type { UsernameUnavailableReason } from '../../gql/schema-types';
import { UsernameAvailableDocument } from './username-available.generated';

/** How long typing must pause before a username is checked with the API. */
export const USERNAME_CHECK_PAUSE_MS = 400;

/** What is known of the username being typed. */
export type UsernameCheck =
  | { state: 'empty' }
  /** The shared rule refuses it (`message` says why); the API is not asked. */
  | { state: 'invalid'; message: string }
  | { state: 'checking' }
  | { state: 'available'; username: string }
  | { state: 'unavailable'; username: string; reason: UsernameUnavailableReason }
  /** The API could not say (offline, too many checks): the sign-up checks it anyway. */
  | { state: 'unknown' };

/**
 * Checks a username as it is typed: the shared rule at once, then, after a pause in typing,
 * whether it is free (`usernameAvailable`). Only the answer for what the field holds now counts.
 */
export function useUsernameCheck(value: string): UsernameCheck {
  const username = normalUsername(value);
  const problem = username === '' ? null : usernameProblem(username);
  const wanted = username !== '' && problem === null ? username : null;
  const [settled, setSettled] = useState<string | null>(null);

  useEffect(() => {
    if (wanted === null) return;
    const timer = setTimeout(() => {
      setSettled(wanted);
    }, USERNAME_CHECK_PAUSE_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [wanted]);

  const asking = wanted !== null && settled === wanted;
  const { data, error } = useQuery(
    UsernameAvailableDocument,
    asking ? { variables: { username: wanted }, fetchPolicy: 'no-cache', context: ANONYMOUS } : skipToken,
  );

  if (username === '') return { state: 'empty' };
  if (problem !== null) return { state: 'invalid', message: problem };
  if (!asking) return { state: 'checking' };
  const answer = data?.usernameAvailable;
  if (answer?.username === wanted) {
    const { reason } = answer;
    return answer.available || !reason
      ? { state: 'available', username: answer.username }
      : { state: 'unavailable', username: answer.username, reason };
  }
  return error ? { state: 'unknown' } : { state: 'checking' };
}
