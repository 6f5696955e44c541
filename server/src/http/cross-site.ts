import type { IncomingHttpHeaders } from 'node:http';

/** What a refused cross-site request is told (GraphQL's CROSS_SITE_REQUEST, the identity service's `cross_site_request`). */
export const CROSS_SITE_MESSAGE =
  'This request came from a page on another site, which may not make changes here. Use Lampstand itself, or call the API from a server or an app.';

/** Request headers as Node gives them, or as a map with `get` (fetch's `Headers`, Apollo's `HeaderMap`). */
export type HeaderSource = IncomingHttpHeaders | { get(name: string): string | null | undefined };

function headerOf(headers: HeaderSource, name: string): string | undefined {
  const value = typeof headers.get === 'function' ? headers.get(name) : (headers as IncomingHttpHeaders)[name];
  return (Array.isArray(value) ? value[0] : value) ?? undefined;
}

/**
 * The one rule for requests that change something (GraphQL mutations, public ones included, and
 * the identity service's POST, PUT and DELETE routes): a browser may send them only from a
 * trusted origin (the site's own, CORS_ORIGINS) or a page the browser itself calls same-origin;
 * a client that sends no `Origin` is a server or an app and may, unless its
 * `Sec-Fetch-Site` says a page on another site sent it. Queries stay open to every origin.
 * Returns true when the request is refused.
 */
export function refusesCrossSite(isTrusted: (origin: string) => boolean): (headers: HeaderSource) => boolean {
  return (headers) => {
    const origin = headerOf(headers, 'origin');
    const site = headerOf(headers, 'sec-fetch-site')?.trim().toLowerCase();
    if (origin === undefined) return site === 'cross-site' || site === 'same-site';
    return !isTrusted(origin) && site !== 'same-origin';
  };
}
