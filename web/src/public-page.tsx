import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startConsent } from './consent/consent';
import { ConsentScope } from './consent/ConsentScope';
import { addressCarriesLinkToken, pushPageView } from './consent/tag-manager';
import { PublicProfilePage } from './features/profile/PublicProfilePage';
import { appConfig } from './lib/config';
import { reloadForNewVersion, reloadOnStaleChunks } from './lib/new-version';
import { SessionStore } from './session/session';
import { ErrorBoundary } from './ui/ErrorBoundary';
import { ProfileSkeleton } from './ui/profile/ProfileView';
import './styles.css';

/**
 * The entry of `profile.html`, which the server sends for a public `/@username` page: a visitor's
 * first load gets the page with React alone, a fraction of the app's code (quality.md P7). A member
 * signed in on this browser gets the app itself (their own page's "Edit page", their menus), and so
 * does a page that cannot be shown after all (the app's 404 page). `npm run dev` serves the app at
 * `/@username`; the production build (`npm start`) serves this.
 */
const found = document.getElementById('root');
if (!found) throw new Error('profile.html has no #root element');
const container: HTMLElement = found;

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

const root = createRoot(container);
const path = window.location.pathname;
const username = decodeURIComponent(/^\/@([^/]+)\/?$/.exec(path)?.[1] ?? '');
const appPage = !username || signedIn();

/** Replaces the page with the app, once the app's code is here (the page stays until then). */
function handOver(): void {
  import('./app/boot').then(
    ({ bootApp }) => {
      root.unmount();
      bootApp(container, consent);
    },
    () => {
      // A deploy removed the chunks this page knows of: the page again, from the new build.
      reloadForNewVersion();
    },
  );
}

let counted = false;
/** One `page_view` for the page, once it shows a profile (the app counts its own pages). */
function countView(): void {
  if (counted || !consent || addressCarriesLinkToken(window.location)) return;
  counted = true;
  pushPageView(path);
}

root.render(
  <StrictMode>
    <ConsentScope consent={consent}>
      <ErrorBoundary resetKey={path} frame={(message) => <main id="main">{message}</main>}>
        {appPage ? (
          <ProfileSkeleton username={username} />
        ) : (
          <PublicProfilePage username={username} onNotFound={handOver} onShown={countView} />
        )}
      </ErrorBoundary>
    </ConsentScope>
  </StrictMode>,
);
if (appPage) handOver();
