import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { PageLocationContext } from './page-location';

/** Offers the router's location to the pages' headings (ui/page-location.ts); sits inside the router. */
export function PageLocationProvider({ children }: { children: ReactNode }) {
  const location = useLocation();
  const state: unknown = location.state;
  return <PageLocationContext value={{ key: location.key, state }}>{children}</PageLocationContext>;
}
