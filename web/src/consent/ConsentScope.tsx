import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import type { Consent } from './consent';

const ConsentContext = createContext<Consent | null>(null);

/** The consent controls, or null when the site asks for no consent (no tag manager configured). */
export function useConsent(): Consent | null {
  return useContext(ConsentContext);
}

/**
 * Offers the consent controls to what it wraps. The app's ConsentProvider adds page views per
 * route; the public page's own document (public-page.tsx) reports its one page view itself.
 */
export function ConsentScope({ consent, children }: { consent: Consent | null; children: ReactNode }) {
  return <ConsentContext value={consent}>{children}</ConsentContext>;
}
