import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { PageLinkContext, PageLocationContext } from './page-location';

/**
 * Offers the router's location to the pages' headings and its links to shared components
 * (ui/page-location.ts); sits inside the router.
 */
export function PageLocationProvider({ children }: { children: ReactNode }) {
  const location = useLocation();
  const state: unknown = location.state;
  return (
    <PageLinkContext value={Link}>
      <PageLocationContext value={{ key: location.key, state }}>{children}</PageLocationContext>
    </PageLinkContext>
  );
}
