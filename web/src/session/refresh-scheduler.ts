import type { Session } from './session';

/** How long before the access token expires the session is refreshed. */
const REFRESH_MARGIN_MS = 60_000;
/**
 * A tab hidden this long is refreshed when it comes back, so that a plan changed meanwhile (billing
 * portal, support) reaches the token's `stripeRole` claim without waiting for the next expiry.
 */
const AWAY_REFRESH_MS = 60_000;
/** When a refresh fails for a passing reason (offline), the next try comes this much later. */
const RETRY_MS = 30_000;
/** setTimeout's longest delay; a longer one would fire at once. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/** Where Web Locks are missing, refreshes still wait for each other within this page. */
let pageRefreshes: Promise<unknown> = Promise.resolve();

/**
 * Runs `task` while no other refresh of this site runs: across tabs with Web Locks, within this page
 * in older browsers and simulated DOMs, which have no (or a null) `navigator.locks`.
 */
export function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = (navigator as Partial<Navigator>).locks;
  if (locks) return locks.request('lampstand-session-refresh', () => task());
  const run = pageRefreshes.then(() => task());
  pageRefreshes = run.catch(() => undefined);
  return run;
}

/** What the scheduler reads of the session it keeps fresh, and how it asks for a refresh. */
export interface RefreshTarget {
  /** The current session while the member is signed in; null otherwise. */
  signedInSession(): Session | null;
  /** The current session, signed in or still being restored. */
  session(): Session | null;
  renew(): void;
}

/**
 * When the session is refreshed: a minute before the access token expires, again after a passing
 * failure, and when the tab comes back having missed that moment or after a minute or more away
 * (the plan may have changed meanwhile).
 */
export class RefreshScheduler {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly target: RefreshTarget) {}

  /** Sets the one timer for the current session's next refresh (none without a session). */
  schedule(): void {
    clearTimeout(this.timer);
    const session = this.target.session();
    if (!session) return;
    const delay = Math.min(Math.max(0, session.expiresAt - REFRESH_MARGIN_MS - Date.now()), MAX_DELAY_MS);
    this.timer = setTimeout(() => {
      this.target.renew();
    }, delay);
  }

  /** Tries again later: the refresh failed for a passing reason (offline). */
  retryLater(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.target.renew();
    }, RETRY_MS);
  }

  cancel(): void {
    clearTimeout(this.timer);
  }

  /** Follows the tab hiding and coming back; returns the stop, which also cancels the timer. */
  watchTab(): () => void {
    let hiddenSince: number | null = document.visibilityState === 'hidden' ? Date.now() : null;
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') {
        hiddenSince ??= Date.now();
        return;
      }
      const away = hiddenSince === null ? 0 : Date.now() - hiddenSince;
      hiddenSince = null;
      if (away >= AWAY_REFRESH_MS) this.refreshAfterAbsence();
      else this.refreshIfDue();
    };
    const onReturn = () => {
      if (document.visibilityState === 'visible') this.refreshIfDue();
    };
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('focus', onReturn);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('focus', onReturn);
      this.cancel();
    };
  }

  private refreshAfterAbsence(): void {
    if (this.target.signedInSession()) this.target.renew();
  }

  private refreshIfDue(): void {
    const session = this.target.signedInSession();
    if (session && Date.now() >= session.expiresAt - REFRESH_MARGIN_MS) this.target.renew();
  }
}
