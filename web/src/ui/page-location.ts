import { createContext, createElement, useContext } from 'react';
import type { ComponentType, ReactNode } from 'react';

/** What a page's heading needs to know about the navigation that showed it (see PageHeading). */
export interface PageLocation {
  /** The router's key for this entry of the history: "default" for the page load itself. */
  key: string;
  /** History state the navigation carried. */
  state: unknown;
}

/** A link to another page of the site. */
export interface PageLinkProps {
  to: string;
  className?: string;
  'aria-label'?: string;
  children: ReactNode;
}

/**
 * The current location, offered by the app's router (ui/PageLocationProvider.tsx). A page that is
 * its own document without the router (web/src/public-page.tsx) has none: it was loaded, not
 * navigated to.
 */
export const PageLocationContext = createContext<PageLocation>({ key: 'default', state: null });

/** How links to the site's pages are drawn: the router's links in the app, plain anchors without it. */
export const PageLinkContext = createContext<ComponentType<PageLinkProps> | null>(null);

export function usePageLocation(): PageLocation {
  return useContext(PageLocationContext);
}

/** A link to another page: the app navigates without loading the document again; a page alone loads it. */
export function PageLink({ to, ...rest }: PageLinkProps) {
  const RouterLink = useContext(PageLinkContext);
  return RouterLink ? createElement(RouterLink, { to, ...rest }) : createElement('a', { href: to, ...rest });
}
