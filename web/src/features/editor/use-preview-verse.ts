import { skipToken, useQuery } from '@apollo/client/react';
import { visitorTimeZone } from '../../lib/time-zone';
import type { Translation } from '../../gql/schema-types';
import type { VerseCard_VerseFragment } from '../../ui/verse/verse-card.generated';
import { EditorVerseDocument } from './profile-editor.generated';

/**
 * The verse the preview shows: the page's verse in the translation being chosen, before it is
 * saved. The page's verse stands in until the other translation's text arrives (and where that
 * translation leaves the verse out, the server answers the KJV's).
 */
export function usePreviewVerse(verse: VerseCard_VerseFragment, translation: Translation): VerseCard_VerseFragment {
  const other = verse.translation !== translation;
  const query = useQuery(
    EditorVerseDocument,
    // The generated hook takes no skipToken; the generated document keeps the types.
    other ? { variables: { timeZone: visitorTimeZone(), translation } } : skipToken,
  );
  const answered = other && query.dataState === 'complete' ? query.data.me?.profile.verse : undefined;
  return answered ?? verse;
}
