import { startConsent } from './consent/consent';
import { appConfig } from './lib/config';
import { reloadForNewVersion, reloadOnStaleChunks } from './lib/new-version';
import './styles.css';

/**
 * The entry of `home.html`, which the server sends for `/` with the page rendered in it
 * (web/src/ssr.tsx): the page shows without any of the app's code, so that code is fetched only
 * after the first paint, where it no longer competes with the page for the network, and then takes
 * the page over (app/boot.tsx). Other addresses, and `/` when the server could not render it, get
 * `index.html` and main.tsx.
 */
const found = document.getElementById('root');
if (!found) throw new Error('home.html has no #root element');
const container: HTMLElement = found;

reloadOnStaleChunks();
// Consent defaults go into the data layer before anything can load a tag.
const consent = startConsent(appConfig().gtmContainerId);

// A frame's callbacks run just before it is painted; a task queued from one runs after.
requestAnimationFrame(() => {
  setTimeout(() => {
    import('./app/boot').then(
      ({ bootApp }) => {
        bootApp(container, consent);
      },
      () => {
        // A deploy removed the chunks this page knows of: the page again, from the new build.
        reloadForNewVersion();
      },
    );
  }, 0);
});
