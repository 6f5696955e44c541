import { PAGE_EMBED_SIZE, pageEmbedSnippet } from '../rules/embeds.js';

/** A page's address on this site: `<site>/@username`, with or without a trailing slash or query. */
const PAGE_PATH = /^\/@([^/]+)\/?$/;

/** The frame is never drawn smaller than this, whatever the site asks: the card would not fit. */
const MIN_SIZE = { width: 200, height: 200 } as const;

/**
 * The username of a page address on this site, or undefined for any other address (another
 * host, another path, an address that does not parse).
 */
export function pageUsernameOf(address: string, siteUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return undefined;
  }
  if (url.origin !== new URL(siteUrl).origin) return undefined;
  const match = PAGE_PATH.exec(url.pathname);
  if (!match?.[1]) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

/** A size limit the consumer sent (`maxwidth`, `maxheight`): a positive whole number, or none. */
export function sizeLimit(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,5}$/.test(value)) return undefined;
  const number = Number(value);
  return number > 0 ? number : undefined;
}

/** The frame's size within the consumer's limits (none: the full size), but not below a readable minimum. */
export function frameSize(maxWidth?: number, maxHeight?: number): { width: number; height: number } {
  return {
    width: Math.max(MIN_SIZE.width, Math.min(PAGE_EMBED_SIZE.width, maxWidth ?? PAGE_EMBED_SIZE.width)),
    height: Math.max(MIN_SIZE.height, Math.min(PAGE_EMBED_SIZE.height, maxHeight ?? PAGE_EMBED_SIZE.height)),
  };
}

export interface OembedRequest {
  siteUrl: string;
  page: { username: string; name: string; photoUrl: string | null };
  /** The photo's width and height in pixels (photos are square). */
  photoSize: number;
  /** The frame's size (`frameSize`). */
  size: { width: number; height: number };
}

/**
 * The oEmbed 1.0 answer (https://oembed.com, type `rich`) for a member's page: a sandboxed frame
 * of its compact view.
 */
export function oembedAnswer({ siteUrl, page, photoSize, size }: OembedRequest): Record<string, unknown> {
  const { width, height } = size;
  return {
    version: '1.0',
    type: 'rich',
    provider_name: 'Lampstand',
    provider_url: siteUrl,
    title: `${page.name} (@${page.username})`,
    author_name: page.name,
    author_url: `${siteUrl}/@${encodeURIComponent(page.username)}`,
    html: pageEmbedSnippet(siteUrl, page, { width, height }),
    width,
    height,
    ...(page.photoUrl ? { thumbnail_url: page.photoUrl, thumbnail_width: photoSize, thumbnail_height: photoSize } : {}),
  };
}
