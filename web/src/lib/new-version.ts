/** When the page last reloaded itself for a new version (sessionStorage, so per tab). */
const RELOADED_AT_KEY = 'lampstand.reloadedForNewVersion';
/** A failure this soon after such a reload is not a stale page: reloading again would loop. */
const RELOAD_GUARD_MS = 60_000;

let reloading = false;

/**
 * True for a module the browser could not load: after a deploy, the old page asks for hashed
 * chunks the build has deleted (each browser words this differently; Vite's preload adds its own).
 */
export function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|importing a module script failed|unable to preload css/i.test(error.message)
  );
}

/** True once the page is reloading for a new version: screens then wait instead of failing. */
export function isReloadingForNewVersion(): boolean {
  return reloading;
}

/**
 * Reloads the page once to fetch the new version's code; false, without reloading, when it did so
 * within the last minute, when storage cannot remember that it did (a loop would go unnoticed),
 * or when the browser is offline (a reload would show the browser's error page instead of ours).
 */
export function reloadForNewVersion(): boolean {
  if (reloading) return true;
  if (!navigator.onLine) return false;
  try {
    const last = Number(sessionStorage.getItem(RELOADED_AT_KEY));
    if (last > 0 && Date.now() - last < RELOAD_GUARD_MS) return false;
    sessionStorage.setItem(RELOADED_AT_KEY, String(Date.now()));
  } catch {
    return false;
  }
  reloading = true;
  window.location.reload();
  return true;
}

/**
 * Vite reports a chunk it could not preload (any dynamic import, not only a page's) with
 * `vite:preloadError`; the import still fails afterwards, and the error boundary shows the rest.
 */
export function reloadOnStaleChunks(): void {
  window.addEventListener('vite:preloadError', () => {
    reloadForNewVersion();
  });
}
