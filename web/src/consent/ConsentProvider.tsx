import { createContext, useContext, useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import type { Consent } from './consent';
import { pushPageView } from './tag-manager';

const ConsentContext = createContext<Consent | null>(null);

/** The consent controls, or null when the site asks for no consent (no tag manager configured). */
export function useConsent(): Consent | null {
  return useContext(ConsentContext);
}

/** Pushes one `page_view` each time the visitor's path changes, starting with the first page. */
export function usePageViews(enabled: boolean): void {
  const { pathname, search } = useLocation();
  const lastPath = useRef<string | null>(null);
  useEffect(() => {
    const path = pathname + search;
    // StrictMode runs this effect twice on mount; the ref outlives that, so a path counts once.
    if (!enabled || lastPath.current === path) return;
    lastPath.current = path;
    pushPageView(path);
  }, [enabled, pathname, search]);
}

/** Offers the consent controls to the pages and reports page views; must sit inside the router. */
export function ConsentProvider({ consent, children }: { consent: Consent | null; children: ReactNode }) {
  usePageViews(consent !== null);
  return <ConsentContext value={consent}>{children}</ConsentContext>;
}
