import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { queryValue } from './request.js';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const REGULAR_HOSTNAME = /^[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?$/;

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

/** Whether a redirect target is the site itself, a loopback address, or on URI_ALLOW_LIST. */
export function isRedirectAllowed(settings: Config['auth'], target: string): boolean {
  if (target === '') return false;
  let site: URL;
  let url: URL;
  try {
    site = new URL(settings.siteUrl);
    url = new URL(target);
  } catch {
    return false;
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname);
  if (url.hostname === site.hostname && url.protocol === site.protocol && (url.port === site.port || loopback)) {
    return true;
  }
  const isHttp = url.protocol === 'http:' || url.protocol === 'https:';
  if (isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0) return loopback;
  if (isHttp && !REGULAR_HOSTNAME.test(url.hostname)) return false;
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
