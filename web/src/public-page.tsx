import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { Consent } from './consent/consent';
import { startConsent } from './consent/consent';
import { ConsentScope } from './consent/ConsentScope';
import { addressCarriesLinkToken, pushPageView } from './consent/tag-manager';
import { PublicProfilePage } from './features/profile/PublicProfilePage';
import { appConfig } from './lib/config';
import { reloadOnStaleChunks } from './lib/new-version';
import { SessionStore } from './session/session';
import './styles.css';

/**
 * The entry of `profile.html`, which the server sends for a public `/@username` page: a visitor's
 * first load gets the page with React alone, a fraction of the app's code (quality.md P7). A member
 * signed in on this browser gets the app itself (their own page's "Edit page", their menus), and so
 * does anyone the page cannot be shown to.
 */
const container = document.getElementById('root');
if (!container) throw new Error('profile.html has no #root element');

reloadOnStaleChunks();
// Consent defaults go into the data layer before anything can load a tag.
const consent = startConsent(appConfig().gtmContainerId);

function signedIn(): boolean {
  try {
    return new SessionStore(window.localStorage).read() !== null;
  } catch {
    return false;
  }
}

function startApp(root: HTMLElement, given: Consent | null): void {
  void import('./app/boot').then(({ bootApp }) => {
    bootApp(root, given);
  });
}

const username = /^\/@([^/]+)\/?$/.exec(window.location.pathname)?.[1];
if (!username || signedIn()) {
  startApp(container, consent);
} else {
  const root = createRoot(container);
  const handOver = () => {
    root.unmount();
    startApp(container, consent);
  };
  if (consent && !addressCarriesLinkToken(window.location)) pushPageView(window.location.pathname);
  root.render(
    <StrictMode>
      <ConsentScope consent={consent}>
        <PublicProfilePage username={decodeURIComponent(username)} onNotFound={handOver} />
      </ConsentScope>
    </StrictMode>,
  );
}
