import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { queryValue } from './request.js';

/** Characters no address may carry: a redirect header with CR/LF in it is refused by Node itself. */
const CONTROL_CHARACTERS = /\p{Cc}/u;

/** Compiles an allow-list glob as Supabase Auth does: `*` stops at `.` and `/`, `**` does not. */
function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern.charAt(index);
    if (char === '*' && pattern.charAt(index + 1) === '*') {
      source += '.*';
      index++;
    } else if (char === '*') source += '[^./]*';
    else if (char === '?') source += '[^./]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** The allow list compiled once per settings object, not at every check. */
const compiledAllowLists = new WeakMap<readonly string[], RegExp[]>();

function allowListPatterns(allowList: readonly string[]): RegExp[] {
  let patterns = compiledAllowLists.get(allowList);
  if (patterns === undefined) {
    patterns = allowList.map(globToRegExp);
    compiledAllowLists.set(allowList, patterns);
  }
  return patterns;
}

/** True when `target` holds control characters (CR/LF, tabs): never a redirect, refused before any token is spent. */
export function hasControlCharacters(target: string): boolean {
  return CONTROL_CHARACTERS.test(target);
}

/**
 * Whether a redirect target is on the site itself (same scheme, host and port) or on
 * URI_ALLOW_LIST. Loopback addresses get no exception: a development front end on another port is
 * listed like any other (development lists the web dev server by default, see config.ts).
 */
export function isRedirectAllowed(settings: Config['auth'], target: string): boolean {
  if (target === '' || hasControlCharacters(target)) return false;
  let site: URL;
  let url: URL;
  try {
    site = new URL(settings.siteUrl);
    url = new URL(target);
  } catch {
    return false;
  }
  if (url.origin === site.origin) return true;
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    // Hosts must be written as they are read: `0x7f.1`, `3232235777` and IDN spellings are
    // addresses in disguise that an allow-list pattern would not see.
    // The host must also end where the parser ended it: browsers read `\` as `/`, so
    // `https://intranet\@x.example.org/` goes to `intranet` while a pattern would see `x.example.org`.
    const written = target.slice(url.protocol.length + 2).toLowerCase();
    if (!written.startsWith(url.host) || !/^(?:[/?#]|$)/.test(written.slice(url.host.length))) return false;
  }
  const withoutFragment = target.split('#')[0] ?? target;
  return allowListPatterns(settings.uriAllowList).some((pattern) => pattern.test(withoutFragment));
}

/** `redirect_to` (query, then Referer) when allowed, else SITE_URL. */
export function redirectTarget(request: FastifyRequest, settings: Config['auth'], candidate?: string): string {
  for (const target of [candidate ?? queryValue(request, 'redirect_to'), request.headers.referer ?? '']) {
    if (isRedirectAllowed(settings, target)) return target;
  }
  return settings.siteUrl;
}
