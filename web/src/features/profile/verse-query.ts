import verseQuery from './profile-verse.graphql?raw';
import verseFragment from '../../ui/verse/verse-card.graphql?raw';
import { getQuery } from '../../lib/get-query';
import type { ProfileVerseQuery, ProfileVerseQueryVariables } from './profile-verse.generated';

/** The `ProfileVerse` operation as text, from its `.graphql` sources, for plain `fetch`. */
const PROFILE_VERSE_QUERY = [verseQuery, verseFragment].join('\n');

export type ProfileVerse = NonNullable<ProfileVerseQuery['profile']>['verse'];

/**
 * A member's verse for the visitor's day and translation, by GET (lib/get-query.ts). Null when
 * visitors may no longer see the page; throws when the API cannot answer.
 */
export async function fetchProfileVerse(variables: ProfileVerseQueryVariables): Promise<ProfileVerse | null> {
  const data = await getQuery<ProfileVerseQuery>('ProfileVerse', PROFILE_VERSE_QUERY, variables);
  return data.profile?.verse ?? null;
}
