import { escapeHtml } from '../http/html.js';
import type { EmbedTheme } from '../rules/embeds.js';

/** A link as the compact view shows it: counted through `/l/<id>`. */
export interface EmbedLink {
  id: string;
  title: string;
  highlighted: boolean;
}

/** What the compact view of a page shows. */
export interface EmbedPage {
  username: string;
  name: string;
  bio: string;
  /** The photo's address, or null: the initial is shown instead. */
  photoUrl: string | null;
  links: readonly EmbedLink[];
  /** The page's own address (the full page). */
  pageUrl: string;
}

export interface EmbedVerse {
  text: string;
  ref: string;
  translationName: string;
  /** The day's own page on the site. */
  dayUrl: string;
}

/** The web app's colours (web/src/ui/base.css), light and dark. */
const COLOURS: Record<EmbedTheme, string> = {
  light:
    '--ink: #1c2233; --soft: #4a5169; --paper: #faf7f2; --card: #fff; --line: #e6e0d6; --brand: #1f2a44; --on-brand: #fff; --accent: #8a5a12; color-scheme: light;',
  dark: '--ink: #eef0f6; --soft: #b7bdd0; --paper: #141926; --card: #1d2333; --line: #2f374d; --brand: #e8c27a; --on-brand: #141926; --accent: #e8c27a; color-scheme: dark;',
};

const STYLE = `
  * { box-sizing: border-box; }
  html, body { margin: 0; height: 100%; }
  body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif; color: var(--ink);
    background: var(--paper); line-height: 1.5; font-size: 15px; }
  a { color: var(--brand); text-underline-offset: 0.18em; }
  a:focus-visible { outline: 3px solid #2f6fde; outline-offset: 2px; }
  .card { min-height: 100%; padding: 1.25rem; display: flex; flex-direction: column; gap: 0.75rem; background: var(--card);
    border: 1px solid var(--line); border-radius: 14px; }
  .who { display: flex; align-items: center; gap: 0.75rem; }
  .photo { width: 56px; height: 56px; border-radius: 50%; object-fit: cover; flex: none; background: var(--line);
    display: inline-flex; align-items: center; justify-content: center; font-weight: 700; font-size: 1.4rem; color: var(--brand); }
  h1 { font-size: 1.15rem; margin: 0; }
  .handle { margin: 0; color: var(--soft); font-size: 0.9rem; }
  .bio { margin: 0; color: var(--soft); }
  ul { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.5rem; }
  .link { display: block; padding: 0.6rem 1rem; border-radius: 999px; border: 1px solid var(--brand); text-align: center;
    text-decoration: none; font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .link.highlighted { background: var(--brand); color: var(--on-brand); }
  .label { margin: 0; font-size: 0.75rem; letter-spacing: 0.12em; text-transform: uppercase; color: var(--accent); font-weight: 700; }
  blockquote { margin: 0; font-family: 'Iowan Old Style', 'Palatino Linotype', Palatino, Georgia, serif; font-size: 1.15rem; }
  blockquote p { margin: 0; }
  .ref { margin: 0; font-weight: 600; }
  .ref span { font-weight: 400; color: var(--soft); }
  .more { margin: auto 0 0; font-size: 0.9rem; }
`;

/**
 * A framed document: no scripts, no analytics, nothing but itself and its images. Links open in a
 * new tab, outside the frame (`<base target="_blank">`): the site around it stays where it was.
 */
function embedDocument(title: string, theme: EmbedTheme, body: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>${escapeHtml(title)}</title>
    <base target="_blank" />
    <style>:root { ${COLOURS[theme]} }${STYLE}</style>
  </head>
  <body>
    <main class="card">
      ${body}
    </main>
  </body>
</html>
`;
}

/** The links a compact view shows at most; the full page has the rest. */
export const EMBED_LINKS_MAX = 5;

/** `/embed/@username`: the photo, name and a few links of a page, and the way to the full page. */
export function pageEmbedHtml(page: EmbedPage, theme: EmbedTheme): string {
  const photo = page.photoUrl
    ? `<img class="photo" src="${escapeHtml(page.photoUrl)}" alt="" width="56" height="56" />`
    : `<span class="photo" aria-hidden="true">${escapeHtml(Array.from(page.name.trim())[0]?.toUpperCase() ?? '?')}</span>`;
  const links = page.links
    .slice(0, EMBED_LINKS_MAX)
    .map(
      (link) =>
        `<li><a class="link${link.highlighted ? ' highlighted' : ''}" href="/l/${escapeHtml(link.id)}" rel="noopener">${escapeHtml(link.title)}</a></li>`,
    )
    .join('');
  return embedDocument(
    `${page.name} (@${page.username}) on Lampstand`,
    theme,
    `<div class="who">${photo}<div><h1>${escapeHtml(page.name)}</h1><p class="handle">@${escapeHtml(page.username)}</p></div></div>
      ${page.bio ? `<p class="bio">${escapeHtml(page.bio)}</p>` : ''}
      ${links ? `<ul>${links}</ul>` : ''}
      <p class="more"><a href="${escapeHtml(page.pageUrl)}" rel="noopener">See the whole page on Lampstand</a></p>`,
  );
}

/** `/embed/verse`: the verse of the day. */
export function verseEmbedHtml(verse: EmbedVerse, theme: EmbedTheme): string {
  return embedDocument(
    `${verse.ref} · Verse of the day · Lampstand`,
    theme,
    `<p class="label">Verse of the day</p>
      <blockquote><p>${escapeHtml(verse.text)}</p></blockquote>
      <p class="ref">${escapeHtml(verse.ref)} <span>${escapeHtml(verse.translationName)}</span></p>
      <p class="more"><a href="${escapeHtml(verse.dayUrl)}" rel="noopener">More on Lampstand</a></p>`,
  );
}

/** The answer to a page that cannot be shown: framable too, so the site around it shows a tidy note. */
export function missingEmbedHtml(theme: EmbedTheme): string {
  return embedDocument(
    'Not available · Lampstand',
    theme,
    '<p class="label">Lampstand</p><p>This page is not available right now.</p>',
  );
}
