import type { Translation } from '../../gql/schema-types';
import { readJsonTag } from '../../lib/json-tag';

/**
 * What the server's rendering of `/@username` (web/src/ssr.tsx) tells the page's islands, in
 * `#lampstand-page`: whose page it is, and which verse the markup shows, so that the browser can
 * tell whether the visitor's own day or translation asks for another.
 */
export interface RenderedPageState {
  username: string;
  /** The day the verse of the day was taken for (YYYY-MM-DD, in UTC: the server knows no time zone). */
  day: string;
  /** The translation the markup's verse is in. */
  translation: Translation;
  /** The verse is one the member keeps (Plus), the same whatever the day. */
  versePinned: boolean;
  /**
   * The verses of the day before and after `day`, by date: a visitor's own day is one of the three,
   * and the server's inline script (server/src/http/verse-day-script.ts) shows it before the page is
   * first drawn, then sets `day` to it.
   */
  days?: Record<string, DayVerse>;
}

/** A verse as the card shows it. */
export interface DayVerse {
  ref: string;
  text: string;
  translation: Translation;
}

/** The page's `#lampstand-page`, or null when the server rendered no page (or the tag is damaged). */
export function readRenderedPage(doc: Document = document): RenderedPageState | null {
  const value = readJsonTag('lampstand-page', doc);
  if (!value) return null;
  const { username, day, translation, versePinned } = value;
  if (typeof username !== 'string' || typeof day !== 'string' || typeof versePinned !== 'boolean') return null;
  if (translation !== 'KJV' && translation !== 'WEB') return null;
  return { username, day, translation, versePinned };
}
