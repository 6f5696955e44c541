import { startConsent } from './consent/consent';
import { addressCarriesLinkToken, pushPageView } from './consent/tag-manager';
import { startIslands } from './features/profile/islands';
import { readRenderedPage } from './features/profile/rendered-page';
import { appConfig } from './lib/config';
import { reloadForNewVersion, reloadOnStaleChunks } from './lib/new-version';
import { sessionStored } from './session/session';
import './styles.css';
import './ui/profile/profile.css';
import './features/profile/report.css';

/**
 * The entry of `profile.html`, which the server sends for a public `/@username` page with the page
 * rendered in it (web/src/ssr.tsx): a visitor's first load reads it, and follows its links, with
 * none of React; the few pieces that do something (share, the QR dialog, reporting, the
 * translation) come to life from their markup, loading code only when used (docs/quality.md P7).
 * A member signed in on this browser gets the app itself (their own page's "Edit page", their
 * menus). Without the page in it, the page is rendered here (features/profile/public-page-mount.tsx).
 */
const found = document.getElementById('root');
if (!found) throw new Error('profile.html has no #root element');
const container: HTMLElement = found;

reloadOnStaleChunks();
// Consent defaults go into the data layer before anything can load a tag.
const consent = startConsent(appConfig().gtmContainerId);

const path = window.location.pathname;
const username = decodeURIComponent(/^\/@([^/]+)\/?$/.exec(path)?.[1] ?? '');
const appPage = !username || sessionStored();
const rendered = container.firstElementChild ? readRenderedPage() : null;

/** Replaces the page with the app, once the app's code is here (the page stays until then). */
function handOver(unmount: () => void = () => undefined): void {
  import('./app/boot').then(
    ({ bootApp }) => {
      unmount();
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

if (rendered && appPage) {
  handOver();
} else if (rendered) {
  countView();
  startIslands(container, rendered, consent);
} else {
  import('./features/profile/public-page-mount').then(
    ({ renderPublicPage }) => {
      renderPublicPage({ container, consent, username, appPage, handOver, onShown: countView });
    },
    () => {
      reloadForNewVersion();
    },
  );
}
