import type { FastifyInstance, FastifyReply } from 'fastify';
import { escapeHtml } from '../http/html.js';
import type { CalendarDay } from '../rules/dates.js';
import { latestToday } from '../rules/dates.js';
import { FIRST_CARD_DAY, parseIsoDate } from './day.js';
import { DEFAULT_TRANSLATION, Translation, translationNames } from './translation.js';
import type { VerseService } from './verse.service.js';
import type { Verse } from './verse.types.js';
import { htmlDocument, SHARE_SCRIPT, SHARE_SCRIPT_PATH, shareAction } from './verse-page-html.js';

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
    `<li><a href="/verse?month=${day.date.slice(0, 7)}">All days of ${escapeHtml(label.split(' ').slice(2).join(' '))}</a></li>`,
  ].join('');
  const title = `${verse.ref} · Verse of the day, ${label} · Lampstand`;
  const canonical = `${publicUrl}${dayPath(day.date, translation)}`;
  // The day's card, in the page's translation; days before the first card have none.
  const image =
    day.date >= FIRST_CARD_DAY
      ? {
          url: `${publicUrl}/share/verse-of-the-day/${day.date}.png${translation === DEFAULT_TRANSLATION ? '' : `?translation=${translation}`}`,
          alt: `${verse.ref}, the verse of ${label}, on a card`,
        }
      : null;
  return htmlDocument({
    title,
    description: `“${verse.text}” ${verse.ref} (${verse.translation})`,
    canonical,
    meta: true,
    image,
    body: `<h1>Verse of the day · <time datetime="${day.date}">${escapeHtml(label)}</time></h1>
      <figure>
        <blockquote><p>${escapeHtml(verse.text)}</p></blockquote>
        <figcaption>${escapeHtml(verse.ref)} <span>${escapeHtml(translationNames[verse.translation])}</span></figcaption>
      </figure>
      <p class="actions">${shareAction(canonical, `${verse.ref} · Verse of the day, ${label}`)}
        <a href="/saved?ref=${encodeURIComponent(verse.ref)}">Save this verse</a></p>
      <p id="share-status" class="status" role="status"></p>
      <nav class="more" aria-label="More verses"><ul>${links}</ul></nav>`,
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
  app.get(SHARE_SCRIPT_PATH, (_request, reply) =>
    reply.header('Cache-Control', 'public, max-age=86400').type('text/javascript; charset=utf-8').send(SHARE_SCRIPT),
  );
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
