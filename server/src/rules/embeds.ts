/**
 * The snippets that put a member's page or the verse of the day on another site: one `<iframe>`
 * each. The server hands the page's out through oEmbed (embeds/oembed.ts) and the web app shows
 * both on its "Share on your website" section, so both sides build them here.
 */

export type EmbedTheme = 'light' | 'dark';
export type EmbedTranslation = 'kjv' | 'web';

export const EMBED_THEMES: readonly EmbedTheme[] = ['light', 'dark'];
export const EMBED_TRANSLATIONS: readonly EmbedTranslation[] = ['kjv', 'web'];

/** The frames' sizes when the site asks for none: a phone-wide card. */
export const PAGE_EMBED_SIZE = { width: 360, height: 480 } as const;
export const VERSE_EMBED_SIZE = { width: 360, height: 260 } as const;

/**
 * What a frame may do: open its links in a new tab (which is then an ordinary tab) or, after a
 * click, in the window around it. No scripts, forms or storage: the embeds need none, so a
 * broken or hostile page inside could not use them either.
 */
export const EMBED_SANDBOX = 'allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation';

const ATTRIBUTE_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

function attribute(value: string): string {
  return value.replace(/[&<>"]/g, (character) => ATTRIBUTE_ESCAPES[character] ?? character);
}

function iframe(src: string, title: string, size: { width: number; height: number }): string {
  return (
    `<iframe src="${attribute(src)}" title="${attribute(title)}" width="${size.width}" height="${size.height}"` +
    ` style="border:0;max-width:100%" loading="lazy" sandbox="${EMBED_SANDBOX}"></iframe>`
  );
}

/** The address of a page's compact view, for a frame. */
export function pageEmbedUrl(siteUrl: string, username: string, theme: EmbedTheme = 'light'): string {
  const query = theme === 'light' ? '' : `?theme=${theme}`;
  return `${siteUrl}/embed/@${encodeURIComponent(username)}${query}`;
}

/** The address of the verse of the day, for a frame. */
export function verseEmbedUrl(
  siteUrl: string,
  options: { theme?: EmbedTheme; translation?: EmbedTranslation } = {},
): string {
  return `${siteUrl}/embed/verse?theme=${options.theme ?? 'light'}&translation=${options.translation ?? 'kjv'}`;
}

/** Where oEmbed consumers ask about a page (`<link rel="alternate" type="application/json+oembed">`). */
export function oembedUrl(siteUrl: string, pageUrl: string): string {
  return `${siteUrl}/oembed?url=${encodeURIComponent(pageUrl)}&format=json`;
}

/** The snippet of a member's page. */
export function pageEmbedSnippet(
  siteUrl: string,
  page: { username: string; name: string },
  options: { theme?: EmbedTheme; width?: number; height?: number } = {},
): string {
  const size = { width: options.width ?? PAGE_EMBED_SIZE.width, height: options.height ?? PAGE_EMBED_SIZE.height };
  return iframe(pageEmbedUrl(siteUrl, page.username, options.theme), `${page.name} on Lampstand`, size);
}

/** The snippet of the verse of the day. */
export function verseEmbedSnippet(
  siteUrl: string,
  options: { theme?: EmbedTheme; translation?: EmbedTranslation } = {},
): string {
  return iframe(verseEmbedUrl(siteUrl, options), 'Verse of the day from Lampstand', VERSE_EMBED_SIZE);
}
