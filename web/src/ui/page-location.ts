import { createContext, useContext } from 'react';

/** What a page's heading needs to know about the navigation that showed it (see PageHeading). */
export interface PageLocation {
  /** The router's key for this entry of the history: "default" for the page load itself. */
  key: string;
  /** History state the navigation carried. */
  state: unknown;
}

/**
 * The current location, offered by the app's router (ui/PageLocationProvider.tsx). A page that is
 * its own document without the router (the public page's entry) has none: it was loaded, not
 * navigated to.
 */
export const PageLocationContext = createContext<PageLocation>({ key: 'default', state: null });

export function usePageLocation(): PageLocation {
  return useContext(PageLocationContext);
}
