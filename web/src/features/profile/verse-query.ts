import verseQuery from './profile-verse.graphql?raw';
import verseFragment from '../../ui/verse/verse-card.graphql?raw';
import type { ProfileVerseQuery, ProfileVerseQueryVariables } from './profile-verse.generated';

/** The `ProfileVerse` operation as text, from its `.graphql` sources, for plain `fetch`. */
const PROFILE_VERSE_QUERY = [verseQuery, verseFragment].join('\n');

export type ProfileVerse = NonNullable<ProfileVerseQuery['profile']>['verse'];

/**
 * A member's verse for the visitor's day and translation, by GET, so that the page's islands need
 * no GraphQL client and the answer may be kept like any public read (docs/quality.md H4). Null when
 * visitors may no longer see the page; throws when the API cannot answer.
 */
export async function fetchProfileVerse(variables: ProfileVerseQueryVariables): Promise<ProfileVerse | null> {
  const search = new URLSearchParams({
    operationName: 'ProfileVerse',
    query: PROFILE_VERSE_QUERY,
    variables: JSON.stringify(variables),
  });
  const response = await fetch(`/graphql?${search.toString()}`, {
    headers: { 'content-type': 'application/json', accept: 'application/json' },
  });
  const body = (await response.json()) as { data?: ProfileVerseQuery | null; errors?: unknown[] };
  if (!response.ok || body.errors?.length || !body.data) {
    throw new Error(`the verse query failed (HTTP ${response.status})`);
  }
  return body.data.profile?.verse ?? null;
}
