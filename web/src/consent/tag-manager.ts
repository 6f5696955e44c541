/** One entry of Google's data layer: an event object, or the `arguments` of a gtag() call. */
export type DataLayerEntry = Record<string, unknown> | IArguments;

declare global {
  interface Window {
    dataLayer?: DataLayerEntry[];
  }
}

export const TAG_MANAGER_URL = 'https://www.googletagmanager.com/gtm.js';

/** A container allowed to load while the address still held a link's token: it loads with the next page view. */
let waitingContainer: string | null = null;

/**
 * True while the address holds an emailed link's secret: a password reset's `?token_hash=`, or the
 * session a confirmation link puts in the fragment (`#access_token=…&refresh_token=…`). Tags read
 * the address themselves, so they wait until the page that reads the token has taken it out.
 */
export function addressCarriesLinkToken(address: { search: string; hash: string }): boolean {
  const query = new URLSearchParams(address.search);
  const fragment = new URLSearchParams(address.hash.replace(/^#/, ''));
  return query.has('token_hash') || fragment.has('access_token') || fragment.has('refresh_token');
}

/** The page's data layer, which the tag manager reads when (and if) it loads. */
export function dataLayer(): DataLayerEntry[] {
  window.dataLayer ??= [];
  return window.dataLayer;
}

/** Google's gtag(): the tag manager reads consent commands only as `arguments` objects, not arrays. */
export function gtag(..._command: unknown[]): void {
  // eslint-disable-next-line prefer-rest-params -- see above: the Arguments object itself is the message
  dataLayer().push(arguments);
}

/** Consent Mode v2: nothing is stored or sent for analytics or ads until the visitor agrees. */
export function denyByDefault(): void {
  gtag('consent', 'default', {
    ad_storage: 'denied',
    analytics_storage: 'denied',
    ad_user_data: 'denied',
    ad_personalization: 'denied',
  });
}

/** Tells tags already loaded what the visitor now allows; Lampstand runs no ads, so only analytics. */
export function updateAnalyticsConsent(granted: boolean): void {
  if (!granted) waitingContainer = null;
  gtag('consent', 'update', { analytics_storage: granted ? 'granted' : 'denied' });
}

/** Adds the tag manager's script once per page load, once the address holds no link's token. */
export function loadTagManager(containerId: string): void {
  if (addressCarriesLinkToken(window.location)) {
    waitingContainer = containerId;
    return;
  }
  if (document.querySelector('script[data-tag-manager]')) return;
  dataLayer().push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  const script = document.createElement('script');
  script.async = true;
  script.src = `${TAG_MANAGER_URL}?id=${encodeURIComponent(containerId)}`;
  script.dataset.tagManager = containerId;
  document.head.append(script);
}

/** A `page_view` for the tag manager: one per route the visitor sees, by its path alone. */
export function pushPageView(path: string): void {
  if (waitingContainer !== null && !addressCarriesLinkToken(window.location)) {
    const containerId = waitingContainer;
    waitingContainer = null;
    loadTagManager(containerId);
  }
  dataLayer().push({ event: 'page_view', page_path: path, page_location: window.location.origin + path });
}
