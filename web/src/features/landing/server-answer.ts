import type { ApolloClient } from '@apollo/client';
import type { VerseCard_VerseFragment } from '../../ui/verse/verse-card.generated';
import { LandingPageDocument } from './landing-page.generated';
import type { LandingPageQueryVariables } from './landing-page.generated';

/**
 * The landing page's query as the server can ask it: it knows neither the visitor's date (the API
 * then answers today in UTC) nor the translation they chose in this browser.
 */
export const SERVER_VARIABLES: LandingPageQueryVariables = { date: undefined, translation: null };

/**
 * Puts the server's verse of the day into `client`'s cache, where the landing page's first render
 * reads it (or a verse for other `variables`, where a later render reads it).
 */
export function primeLandingPage(
  client: ApolloClient,
  verse: Omit<VerseCard_VerseFragment, '__typename'>,
  variables: LandingPageQueryVariables = SERVER_VARIABLES,
): void {
  client.writeQuery({
    query: LandingPageDocument,
    variables,
    data: { __typename: 'Query', verseOfTheDay: { __typename: 'Verse', ...verse } },
  });
}
