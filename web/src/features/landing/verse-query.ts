import landingQuery from './landing-page.graphql?raw';
import verseFragment from '../../ui/verse/verse-card.graphql?raw';
import { getQuery } from '../../lib/get-query';
import type { LandingPageQuery, LandingPageQueryVariables } from './landing-page.generated';

/** The `LandingPage` operation as text, from its `.graphql` sources, for plain `fetch`. */
const LANDING_PAGE_QUERY = [landingQuery, verseFragment].join('\n');

export type LandingVerse = LandingPageQuery['verseOfTheDay'];

/** The verse of a day in a translation, as the landing page asks for it, by GET (lib/get-query.ts). */
export async function fetchLandingVerse(variables: LandingPageQueryVariables): Promise<LandingVerse> {
  const data = await getQuery<LandingPageQuery>('LandingPage', LANDING_PAGE_QUERY, variables);
  return data.verseOfTheDay;
}
