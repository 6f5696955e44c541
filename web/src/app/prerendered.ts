import { isRecord, readJsonTag } from '../lib/json-tag';

/**
 * What the server's rendering of a page hands the browser with its markup (`#lampstand-state`, see
 * web/src/ssr.tsx): the GraphQL answers the page was rendered from, so that the browser's first
 * render reads the same and takes the markup over.
 */
export interface PrerenderedState {
  /** The pathname the markup is for. */
  path: string;
  /** The Apollo cache the page was rendered from, as `cache.extract()` gives it. */
  apollo: unknown;
}

/** The page's `#lampstand-state`, or null when the server rendered no markup (or the tag is damaged). */
export function readPrerenderedState(doc: Document = document): PrerenderedState | null {
  const value = readJsonTag('lampstand-state', doc);
  if (!value || typeof value.path !== 'string' || !isRecord(value.apollo)) return null;
  return { path: value.path, apollo: value.apollo };
}
