import { useProfilePageQuery } from './profile-page.generated';
import type { ProfileView_ProfileFragment } from '../../ui/profile/profile-view.generated';
import { visitorTimeZone } from '../../lib/time-zone';
import type { Translation } from '../../gql/schema-types';

export type ProfilePageState =
  | { status: 'loading' }
  | { status: 'error'; retry: () => void }
  | { status: 'not-found' }
  | { status: 'ready'; profile: ProfileView_ProfileFragment };

/**
 * A member's public page, with the verse of the visitor's day in `translation` (the member's choice
 * when null); null from the API means not found.
 */
export function useProfilePage(username: string, translation: Translation | null): ProfilePageState {
  const { data, dataState, error, refetch } = useProfilePageQuery({
    variables: { username, timeZone: visitorTimeZone(), translation },
    // A verse cached from an earlier visit may be yesterday's.
    fetchPolicy: 'cache-and-network',
  });
  if (dataState === 'complete') {
    return data.profile ? { status: 'ready', profile: data.profile } : { status: 'not-found' };
  }
  if (error) {
    return {
      status: 'error',
      retry: () => {
        void refetch();
      },
    };
  }
  return { status: 'loading' };
}
