import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import type { Consent } from './consent';
import { ConsentScope } from './ConsentScope';
import { addressCarriesLinkToken, pushPageView } from './tag-manager';

/**
 * Pushes one `page_view` each time the visitor's path changes, starting with the first page. It
 * reports the path alone, since a query string or fragment can carry what analytics must not see
 * (an emailed link's token), and waits while the address holds a link's token for the page to take
 * it out, since tags read the address at each event.
 */
function usePageViews(enabled: boolean): void {
  const { pathname, search, hash } = useLocation();
  const lastPath = useRef<string | null>(null);
  useEffect(() => {
    // StrictMode runs this effect twice on mount; the ref outlives that, so a path counts once.
    if (!enabled || lastPath.current === pathname || addressCarriesLinkToken({ search, hash })) return;
    lastPath.current = pathname;
    pushPageView(pathname);
  }, [enabled, pathname, search, hash]);
}

/** Offers the consent controls to the pages and reports page views; must sit inside the router. */
export function ConsentProvider({ consent, children }: { consent: Consent | null; children: ReactNode }) {
  usePageViews(consent !== null);
  return <ConsentScope consent={consent}>{children}</ConsentScope>;
}
