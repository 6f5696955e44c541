import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { Consent } from '../consent/consent';
import type { ShownVerse } from '../features/landing/islands';
import { primeLandingPage } from '../features/landing/server-answer';
import { carriesEmailedLink } from '../lib/emailed-link';
import { AuthClient } from '../session/auth-client';
import { App } from './App';
import { readPrerenderedState } from './prerendered';

/** What the page did before the app arrived. */
export interface BootOptions {
  /** The verse the landing page's islands put in the server's markup, if they changed it. */
  shown?: ShownVerse | null;
  /** The path whose `page_view` the page has already pushed. */
  counted?: string;
}

/**
 * Starts the web app in `container`, with the consent controls the page started. Markup the
 * server rendered there (the home page, for a visitor signed out) is taken over as it is, from the
 * answers it was rendered from (and the verse the page's islands showed since); a member signed in
 * on this browser, or another address, gets the app rendered afresh in its place.
 */
export function bootApp(container: HTMLElement, consent: Consent | null, options: BootOptions = {}): void {
  const auth = new AuthClient();
  const app = (
    <StrictMode>
      <App consent={consent} auth={auth} counted={options.counted} />
    </StrictMode>
  );
  const prerendered = container.firstElementChild ? readPrerenderedState() : null;
  const { pathname, hash } = window.location;
  if (
    prerendered?.path === pathname &&
    !carriesEmailedLink(hash) &&
    // The server renders for a visitor signed out; a stored session first shows the app loading.
    auth.getSnapshot().status === 'signedOut'
  ) {
    auth.apollo.cache.restore(prerendered.apollo);
    const { shown } = options;
    if (shown) {
      // The first render reads the server's answer, which must be what the markup shows now; the
      // next asks with the visitor's day and translation, which the islands asked already.
      primeLandingPage(auth.apollo, shown.verse);
      primeLandingPage(auth.apollo, shown.verse, shown.variables);
    }
    startTransition(() => {
      hydrateRoot(container, app);
    });
    return;
  }
  createRoot(container).render(app);
}
