import { escapeHtml } from '../http/html.js';

/** The share action's script, served at this address (scripts come from the site itself only). */
export const SHARE_SCRIPT_PATH = '/verse/share.js';

/**
 * The share action, made better where scripts run: the share sheet where there is one, otherwise
 * the link copied to the clipboard, and said so. Without scripts the action is a plain link that
 * writes an email with the day's address.
 */
export const SHARE_SCRIPT = `(() => {
  const action = document.querySelector('[data-share-url]');
  const status = document.getElementById('share-status');
  if (!action || !status) return;
  action.addEventListener('click', async (event) => {
    const url = action.getAttribute('data-share-url');
    const title = action.getAttribute('data-share-title') || document.title;
    if (typeof navigator.share === 'function') {
      event.preventDefault();
      try { await navigator.share({ url, title }); } catch (error) { if (error && error.name !== 'AbortError') status.textContent = 'Copy this link: ' + url; }
      return;
    }
    if (navigator.clipboard && typeof navigator.clipboard.writeText === 'function') {
      event.preventDefault();
      try { await navigator.clipboard.writeText(url); status.textContent = 'Link copied'; }
      catch { status.textContent = 'Copy this link: ' + url; }
    }
  });
})();
`;

/** The site's mark (web/src/ui/BrandMark.tsx), drawn the same way; the text beside it names it. */
const BRAND_MARK = `<svg aria-hidden="true" viewBox="0 0 64 64" width="28" height="28"><path d="M32 8c6 8 9 12 9 18a9 9 0 0 1-18 0c0-6 3-10 9-18z" fill="currentColor"/><rect x="28" y="37" width="8" height="13" rx="2" fill="currentColor" opacity=".7"/><rect x="19" y="51" width="26" height="5" rx="2.5" fill="currentColor" opacity=".7"/></svg>`;

/** The web app's colours and type (web/src/ui/base.css), so that a day's page looks like the rest of the site. */
const STYLE = `
  :root { --ink: #1c2233; --soft: #4a5169; --paper: #faf7f2; --card: #fff; --line: #e6e0d6; --brand: #1f2a44; --accent: #8a5a12; --focus: #2f6fde;
    --serif: 'Iowan Old Style', 'Palatino Linotype', Palatino, Georgia, 'Times New Roman', serif;
    color-scheme: light; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif; color: var(--ink); background: var(--paper); line-height: 1.55; }
  * { box-sizing: border-box; }
  body { margin: 0; min-width: 320px; }
  a { color: var(--brand); text-underline-offset: 0.18em; }
  :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
  .site-header { display: flex; align-items: center; justify-content: space-between; gap: 1rem; padding: 1rem clamp(1rem, 4vw, 2.5rem); }
  .brand { display: inline-flex; align-items: center; gap: 0.5rem; font-weight: 700; font-size: 1.15rem; text-decoration: none; color: var(--brand); }
  .site-nav { display: flex; gap: 1rem; }
  main { max-width: 44rem; margin: 0 auto; padding: 1rem clamp(1rem, 4vw, 2.5rem) 3rem; }
  h1 { font-size: 0.85rem; letter-spacing: 0.12em; text-transform: uppercase; color: var(--accent); margin: 1rem 0 0.75rem; }
  figure { margin: 0; background: var(--card); border: 1px solid var(--line); border-radius: 14px; padding: clamp(1.25rem, 4vw, 2.25rem);
    box-shadow: 0 1px 2px rgb(28 34 51 / 5%), 0 8px 24px rgb(28 34 51 / 6%); }
  blockquote { margin: 0; font-family: var(--serif); font-size: clamp(1.2rem, 3.2vw, 1.6rem); line-height: 1.45; }
  blockquote p { margin: 0; }
  figcaption { margin-top: 1rem; font-weight: 600; }
  figcaption span { font-weight: 400; color: var(--soft); }
  .actions { display: flex; flex-wrap: wrap; align-items: center; gap: 0.75rem 1.25rem; margin: 1.25rem 0 0; }
  .button { display: inline-flex; align-items: center; gap: 0.4rem; min-height: 2.75rem; padding: 0.55rem 1.2rem; border-radius: 999px;
    border: 1px solid var(--brand); background: var(--brand); color: #fff; text-decoration: none; font-weight: 600; }
  .status { min-height: 1.5em; margin: 0.5rem 0 0; color: var(--soft); overflow-wrap: anywhere; }
  nav.more ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; margin: 1.5rem 0 0; }
  nav.more a { display: inline-block; padding: 0.3rem 0; }
  footer { max-width: 44rem; margin: 0 auto; padding: 1.5rem clamp(1rem, 4vw, 2.5rem) 2.5rem; border-top: 1px solid var(--line); color: var(--soft); font-size: 0.9rem; }
`;

/** The share action's icon, as the web app draws it (web/src/ui/profile/ShareButton.tsx). */
const SHARE_ICON = `<svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2"><path d="M12 3v12M7 8l5-5 5 5" stroke-linecap="round" stroke-linejoin="round"/><path d="M5 13v6a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-6" stroke-linecap="round"/></svg>`;

/** "Share this day": the share sheet or a copied link with the script, an email without. */
export function shareAction(url: string, title: string): string {
  const mail = `mailto:?subject=${encodeURIComponent(title)}&body=${encodeURIComponent(url)}`;
  return `<a class="button" href="${escapeHtml(mail)}" data-share-url="${escapeHtml(url)}" data-share-title="${escapeHtml(title)}">${SHARE_ICON}Share this day</a>`;
}

export interface PageImage {
  url: string;
  alt: string;
}

/** A day's page, or its 404, in the site's frame: header with the logo, the page, the credits. */
export function htmlDocument(options: {
  title: string;
  description: string;
  canonical: string;
  body: string;
  meta: boolean;
  image?: PageImage | null;
}): string {
  const title = escapeHtml(options.title);
  const description = escapeHtml(options.description);
  const canonical = escapeHtml(options.canonical);
  const image = options.image;
  const meta = options.meta
    ? [
        `<meta name="description" content="${description}" />`,
        `<link rel="canonical" href="${canonical}" />`,
        `<meta property="og:type" content="article" />`,
        `<meta property="og:site_name" content="Lampstand" />`,
        `<meta property="og:title" content="${title}" />`,
        `<meta property="og:description" content="${description}" />`,
        `<meta property="og:url" content="${canonical}" />`,
        ...(image
          ? [
              `<meta property="og:image" content="${escapeHtml(image.url)}" />`,
              `<meta property="og:image:width" content="1200" />`,
              `<meta property="og:image:height" content="630" />`,
              `<meta property="og:image:alt" content="${escapeHtml(image.alt)}" />`,
              `<meta name="twitter:card" content="summary_large_image" />`,
              `<meta name="twitter:image" content="${escapeHtml(image.url)}" />`,
            ]
          : [`<meta name="twitter:card" content="summary" />`]),
        `<meta name="twitter:title" content="${title}" />`,
        `<meta name="twitter:description" content="${description}" />`,
      ].join('\n    ')
    : '<meta name="robots" content="noindex" />';
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="theme-color" content="#1f2a44" />
    <title>${title}</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    ${meta}
    <style>${STYLE}</style>
    <script src="${SHARE_SCRIPT_PATH}" defer></script>
  </head>
  <body>
    <header class="site-header">
      <a class="brand" href="/" aria-label="Lampstand home">${BRAND_MARK}<span>Lampstand</span></a>
      <nav class="site-nav" aria-label="Verses"><a href="/verse">Verse calendar</a></nav>
    </header>
    <main id="main">
      ${options.body}
    </main>
    <footer>
      <p>Scripture from the King James Version (1769) and the World English Bible, both public domain.</p>
    </footer>
  </body>
</html>
`;
}
