import { codePoints } from '../db/columns.js';
import { badUserInput } from '../graphql/errors.js';

/** How many links one page holds. */
export const MAX_LINKS = 50;
/** A link's title, after trimming. */
export const MAX_LINK_TITLE_LENGTH = 80;
/** A link's address, after normalising. */
export const MAX_LINK_URL_LENGTH = 2048;

/** The schemes a link may use: web pages, email and phone. Anything else (`javascript:`, `data:`…) is refused. */
const SCHEMES: ReadonlySet<string> = new Set(['https:', 'http:', 'mailto:', 'tel:']);

/** A link's title as stored: trimmed, inner runs of white space made one space, 1–80 characters. */
export function cleanLinkTitle(title: string, field: string): string {
  const clean = title.replace(/\s+/gu, ' ').trim();
  if (clean.length === 0) throw badUserInput('Give the link a title.', field);
  if (codePoints(clean) > MAX_LINK_TITLE_LENGTH) {
    throw badUserInput(`A link's title can be at most ${MAX_LINK_TITLE_LENGTH} characters.`, field);
  }
  return clean;
}

/**
 * A link's address as stored: `https:`, `http:`, `mailto:` or `tel:` only, in the WHATWG URL
 * parser's normal form (lower-case scheme and host, punycode, percent-encoding). An address typed
 * without a scheme (`example.com/me`) is taken as `https:`.
 */
export function normalizeLinkUrl(input: string, field: string): string {
  const typed = input.trim();
  if (typed.length === 0) throw badUserInput('Enter the address the link goes to.', field);
  // `example.com:8080/me` is a host and port typed without a scheme; `tel:911` is not.
  const hasScheme =
    /^(?:mailto|tel):/iu.test(typed) || (/^[a-z][a-z0-9+.-]*:/iu.test(typed) && !/^[^:/]+:\d+(?:[/?#]|$)/u.test(typed));
  const withScheme = hasScheme ? typed : `https://${typed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw badUserInput(`"${typed.slice(0, 100)}" is not a web address.`, field);
  }
  if (!SCHEMES.has(url.protocol)) {
    throw badUserInput(
      'A link must be a web address (https: or http:), an email (mailto:) or a phone number (tel:).',
      field,
    );
  }
  if ((url.protocol === 'https:' || url.protocol === 'http:') && !url.hostname.includes('.')) {
    throw badUserInput(`"${typed.slice(0, 100)}" is not a web address.`, field);
  }
  if ((url.protocol === 'https:' || url.protocol === 'http:') && (url.username || url.password)) {
    throw badUserInput('A link cannot carry a user name or password.', field);
  }
  if ((url.protocol === 'mailto:' || url.protocol === 'tel:') && url.pathname.length === 0) {
    throw badUserInput(`"${typed.slice(0, 100)}" has no address after ${url.protocol}`, field);
  }
  const normal = url.href;
  if (normal.length > MAX_LINK_URL_LENGTH) {
    throw badUserInput(`A link's address can be at most ${MAX_LINK_URL_LENGTH} characters.`, field);
  }
  return normal;
}
