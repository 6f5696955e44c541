import type { FastifyInstance, FastifyReply } from 'fastify';
import { escapeHtml } from '../http/html.js';
import type { CalendarDay } from './day.js';
import { latestToday, parseIsoDate } from './day.js';
import { DEFAULT_TRANSLATION, Translation, translationNames } from './translation.js';
import type { VerseService } from './verse.service.js';
import type { Verse } from './verse.types.js';

export interface VersePagesOptions {
  verses: VerseService;
  /** The address people use, for canonical and Open Graph links. */
  publicUrl: string;
  /** The clock that decides which days have begun (tests pass their own). */
  now?: () => Date;
}

const DAY_MS = 86_400_000;

/** `2028-02-29` → `Tuesday, 29 February 2028`, in UTC since the date names a calendar day. */
function longDate(date: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T00:00:00Z`));
}

function shiftDate(date: string, days: number): string | null {
  const shifted = new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS);
  const year = shifted.getUTCFullYear();
  return year < 1 || year > 9999 ? null : shifted.toISOString().slice(0, 10);
}

function readTranslation(query: unknown): Translation {
  const value = (query as { translation?: unknown } | undefined)?.translation;
  return value === Translation.WEB ? Translation.WEB : DEFAULT_TRANSLATION;
}

/** The page's own address for a day and translation (the KJV's has no query). */
function dayPath(date: string, translation: Translation): string {
  return `/verse/${date}${translation === DEFAULT_TRANSLATION ? '' : `?translation=${translation}`}`;
}

const STYLE = `
  :root { color-scheme: light dark; --ink: #1c2233; --soft: #5b6475; --brand: #1f2a44; --card: #fffdf8; --line: #e4ddd0; }
  @media (prefers-color-scheme: dark) { :root { --ink: #f1ede4; --soft: #b9b2a6; --brand: #e9c46a; --card: #1c2233; --line: #333c52; } body { background: #141a28; } }
  body { margin: 0; font-family: system-ui, sans-serif; color: var(--ink); background: #f7f3ea; line-height: 1.5; }
  main { max-width: 40rem; margin: 0 auto; padding: 2rem 1.25rem 3rem; }
  a { color: var(--brand); }
  a:focus-visible { outline: 3px solid var(--brand); outline-offset: 2px; }
  .brand { font-weight: 700; text-decoration: none; }
  h1 { font-size: 1rem; letter-spacing: 0.08em; text-transform: uppercase; color: var(--soft); margin: 2rem 0 1rem; }
  figure { margin: 0; background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 1.5rem 1.75rem; }
  blockquote { margin: 0; font-family: Georgia, serif; font-size: clamp(1.2rem, 3.2vw, 1.6rem); }
  figcaption { margin-top: 1rem; font-weight: 600; }
  figcaption span { font-weight: 400; color: var(--soft); }
  nav ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; margin: 1.5rem 0 0; }
`;

function htmlDocument(options: {
  title: string;
  description: string;
  canonical: string;
  body: string;
  meta: boolean;
}): string {
  const title = escapeHtml(options.title);
  const description = escapeHtml(options.description);
  const canonical = escapeHtml(options.canonical);
  const meta = options.meta
    ? [
        `<meta name="description" content="${description}" />`,
        `<link rel="canonical" href="${canonical}" />`,
        `<meta property="og:type" content="article" />`,
        `<meta property="og:site_name" content="Lampstand" />`,
        `<meta property="og:title" content="${title}" />`,
        `<meta property="og:description" content="${description}" />`,
        `<meta property="og:url" content="${canonical}" />`,
        `<meta name="twitter:card" content="summary" />`,
        `<meta name="twitter:title" content="${title}" />`,
        `<meta name="twitter:description" content="${description}" />`,
      ].join('\n    ')
    : '<meta name="robots" content="noindex" />';
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
    ${meta}
    <style>${STYLE}</style>
  </head>
  <body>
    <main>
      <a class="brand" href="/">Lampstand</a>
      ${options.body}
    </main>
  </body>
</html>
`;
}

function versePage(
  day: CalendarDay,
  verse: Verse,
  translation: Translation,
  publicUrl: string,
  latest: string,
): string {
  const label = longDate(day.date);
  const previous = shiftDate(day.date, -1);
  const next = shiftDate(day.date, 1);
  const other = translation === Translation.KJV ? Translation.WEB : Translation.KJV;
  const links = [
    previous
      ? `<li><a href="${dayPath(previous, translation)}" rel="prev">← ${escapeHtml(longDate(previous))}</a></li>`
      : '',
    next && next <= latest
      ? `<li><a href="${dayPath(next, translation)}" rel="next">${escapeHtml(longDate(next))} →</a></li>`
      : '',
    `<li><a href="${dayPath(day.date, other)}">Read it in the ${escapeHtml(translationNames[other])}</a></li>`,
    `<li><a href="/saved?ref=${encodeURIComponent(verse.ref)}">Save this verse</a></li>`,
    `<li><a href="/verse?month=${day.date.slice(0, 7)}">All days of ${escapeHtml(label.split(' ').slice(2).join(' '))}</a></li>`,
  ].join('');
  return htmlDocument({
    title: `${verse.ref} · Verse of the day, ${label} · Lampstand`,
    description: `“${verse.text}” ${verse.ref} (${verse.translation})`,
    canonical: `${publicUrl}${dayPath(day.date, translation)}`,
    meta: true,
    body: `<h1>Verse of the day · <time datetime="${day.date}">${escapeHtml(label)}</time></h1>
      <figure>
        <blockquote><p>${escapeHtml(verse.text)}</p></blockquote>
        <figcaption>${escapeHtml(verse.ref)} <span>${escapeHtml(translationNames[verse.translation])}</span></figcaption>
      </figure>
      <nav aria-label="More verses"><ul>${links}</ul></nav>`,
  });
}

function notFound(reply: FastifyReply, message: string): FastifyReply {
  return reply
    .code(404)
    .header('Cache-Control', 'no-cache')
    .type('text/html; charset=utf-8')
    .send(
      htmlDocument({
        title: 'No verse for this day · Lampstand',
        description: message,
        canonical: '',
        meta: false,
        body: `<h1>No verse for this day</h1><p>${escapeHtml(message)}</p><p><a href="/verse">Browse the days</a></p>`,
      }),
    );
}

/**
 * `/verse/YYYY-MM-DD`: the verse of that day as a page of its own, written on the server so that
 * it reads without JavaScript and link previews show the verse. A day's page exists once the day
 * has begun somewhere on Earth; later days and impossible dates are 404s. `?translation=WEB`
 * shows the World English Bible.
 */
export function registerVersePages(app: FastifyInstance, options: VersePagesOptions): void {
  const now = options.now ?? (() => new Date());
  app.get<{ Params: { date: string } }>('/verse/:date', async (request, reply) => {
    let day: CalendarDay;
    try {
      day = parseIsoDate(request.params.date);
    } catch {
      return notFound(reply, 'That is not a date of the calendar. Days are written as YYYY-MM-DD.');
    }
    const latest = latestToday(now());
    if (day.date > latest) return notFound(reply, 'This day has not begun anywhere yet; its verse comes with it.');
    const translation = readTranslation(request.query);
    const verse = await options.verses.forDay(day, translation);
    // A past day's verse never changes; today's page may gain a "next day" link within hours.
    const maxAge = day.date < (shiftDate(latest, -1) ?? latest) ? 86_400 : 600;
    return reply
      .header('Cache-Control', `public, max-age=${maxAge}`)
      .type('text/html; charset=utf-8')
      .send(versePage(day, verse, translation, options.publicUrl, latest));
  });
}
