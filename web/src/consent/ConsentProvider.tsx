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
 * it out, since tags read the address at each event. A first page the page counted before the app
 * arrived (`counted`) is not counted again.
 */
function usePageViews(enabled: boolean, counted: string | null): void {
  const { pathname, search, hash } = useLocation();
  const lastPath = useRef<string | null>(counted);
  useEffect(() => {
    // StrictMode runs this effect twice on mount; the ref outlives that, so a path counts once.
    if (!enabled || lastPath.current === pathname || addressCarriesLinkToken({ search, hash })) return;
    lastPath.current = pathname;
    pushPageView(pathname);
  }, [enabled, pathname, search, hash]);
}

/** Offers the consent controls to the pages and reports page views; must sit inside the router. */
export function ConsentProvider({
  consent,
  counted,
  children,
}: {
  consent: Consent | null;
  counted?: string | undefined;
  children: ReactNode;
}) {
  usePageViews(consent !== null, counted ?? null);
  return <ConsentScope consent={consent}>{children}</ConsentScope>;
}
