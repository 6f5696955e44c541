import pageQuery from './profile-page.graphql?raw';
import viewFragment from '../../ui/profile/profile-view.graphql?raw';
import linksFragment from '../../ui/profile/profile-links.graphql?raw';
import verseFragment from '../../ui/verse/verse-card.graphql?raw';
import type { ProfilePageQuery, ProfilePageQueryVariables } from './profile-page.generated';

/** The `ProfilePage` operation as text: the same `.graphql` sources the app's typed hook is made from. */
export const PROFILE_PAGE_QUERY = [pageQuery, viewFragment, linksFragment, verseFragment].join('\n');

/**
 * The public page's one query over plain `fetch`, so that a visitor's first load carries no GraphQL
 * client (quality.md P7). Null when visitors may not see the profile; throws when the API cannot
 * answer. The answer has no `__typename` fields (Apollo adds them to its own queries); the page's
 * components never read them.
 */
export async function fetchPublicProfile(
  variables: ProfilePageQueryVariables,
  signal: AbortSignal,
): Promise<ProfilePageQuery['profile']> {
  const response = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ operationName: 'ProfilePage', query: PROFILE_PAGE_QUERY, variables }),
    signal,
  });
  const body = (await response.json()) as { data?: ProfilePageQuery | null; errors?: unknown[] };
  if (!response.ok || body.errors?.length || !body.data) {
    throw new Error(`the profile query failed (HTTP ${response.status})`);
  }
  return body.data.profile;
}
