import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { Consent } from '../consent/consent';
import { carriesEmailedLink } from '../lib/emailed-link';
import { AuthClient } from '../session/auth-client';
import { App } from './App';
import { readPrerenderedState } from './prerendered';

/**
 * Starts the web app in `container`, with the consent controls the page started. Markup the
 * server rendered there (the home page, for a visitor signed out) is taken over as it is, from the
 * answers it was rendered from; a member signed in on this browser, or another address, gets the
 * app rendered afresh in its place.
 */
export function bootApp(container: HTMLElement, consent: Consent | null): void {
  const auth = new AuthClient();
  const app = (
    <StrictMode>
      <App consent={consent} auth={auth} />
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
    startTransition(() => {
      hydrateRoot(container, app);
    });
    return;
  }
  createRoot(container).render(app);
}
