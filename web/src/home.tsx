import type { BootOptions } from './app/boot';
import { startConsent } from './consent/consent';
import { addressCarriesLinkToken, pushPageView } from './consent/tag-manager';
import { startLandingIslands } from './features/landing/islands';
import { whenLandingTakenOver } from './features/landing/taken-over';
import { appConfig } from './lib/config';
import { carriesEmailedLink } from './lib/emailed-link';
import { reloadForNewVersion, reloadOnStaleChunks } from './lib/new-version';
import { sessionStored } from './session/session';
// The app's headings tell a key press from a pointer; a link may be followed before the app is here.
import './ui/input-modality';
import './styles.css';

/**
 * The entry of `home.html`, which the server sends for `/` with the page rendered in it
 * (web/src/ssr.tsx). A visitor signed out reads it, and follows its links, with none of the app's
 * code: the verse and its KJV/WEB buttons come to life from their markup (features/landing/islands.ts),
 * and the app (React, its router and GraphQL client) loads at the visitor's first touch, key or
 * pointer on the page, then takes the page over as it stands (app/boot.tsx), so that loading the
 * page runs no long task (docs/quality.md P8). A click on one of its links before then waits for
 * the app, which follows it. A member signed in on this browser, and an emailed link's fragment,
 * get the app after the first paint. Other addresses, and `/` when the server could not render it,
 * get `index.html` and main.tsx.
 */
const found = document.getElementById('root');
if (!found) throw new Error('home.html has no #root element');
const container: HTMLElement = found;

reloadOnStaleChunks();
// Consent defaults go into the data layer before anything can load a tag.
const consent = startConsent(appConfig().gtmContainerId);

/**
 * Loads the app and starts it, once, with what the page tells it when its code is here. When that
 * code cannot be had (a deploy removed the chunks this page knows of), `unavailable` runs: by
 * default the page again, from the new build.
 */
let booting = false;
function boot(options: () => BootOptions = () => ({}), unavailable: () => void = reloadForNewVersion): void {
  if (booting) return;
  booting = true;
  import('./app/boot').then(
    ({ bootApp }) => {
      bootApp(container, consent, options());
    },
    () => {
      unavailable();
    },
  );
}

/** What starts the app on a page a visitor is reading: any sign that they are about to use it. */
const FIRST_USE = ['pointerdown', 'pointerover', 'touchstart', 'keydown', 'focusin'] as const;

/** The page with its islands, and the app at the visitor's first use of it. */
function startPage(): void {
  const islands = startLandingIslands(container, consent);
  const counted = consent && !addressCarriesLinkToken(window.location) ? '/' : undefined;
  if (counted) pushPageView(counted);
  // A link followed before the app owns the page is followed by the app once it does, so that it
  // keeps what the app's link carries (a notice for the next page) and the page stays the same.
  let held: HTMLAnchorElement | null = null;
  const start = () => {
    for (const type of FIRST_USE) window.removeEventListener(type, start, true);
    boot(
      () => ({ shown: islands.stop(), counted }),
      () => {
        // Without the app, links are followed as plain links are, the one clicked meanwhile at once.
        container.removeEventListener('click', hold);
        if (held) window.location.assign(held.href);
        else reloadForNewVersion();
      },
    );
  };
  for (const type of FIRST_USE) window.addEventListener(type, start, { capture: true, passive: true });

  function hold(event: MouseEvent): void {
    const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[href]') : null;
    const plain = event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
    if (!link || !plain || link.target || link.origin !== window.location.origin || event.defaultPrevented) return;
    if (link.pathname === window.location.pathname && link.hash) return;
    event.preventDefault();
    held = link;
    start();
  }
  container.addEventListener('click', hold);
  void whenLandingTakenOver().then(() => {
    container.removeEventListener('click', hold);
    if (!held) return;
    if (held.isConnected) held.click();
    else window.location.assign(held.href);
  });
}

if (sessionStored() || carriesEmailedLink(window.location.hash)) {
  // A frame's callbacks run just before it is painted; a task queued from one runs after.
  requestAnimationFrame(() => {
    setTimeout(() => {
      boot();
    }, 0);
  });
} else {
  startPage();
}
