/**
 * What visitors see of a page's links now: hidden ones never, schedules and highlights only while
 * the owner has Plus. The server's answers and `/l/` redirects (links/link.policies.ts) and the
 * web's editor preview apply these same functions (`@rules/links`).
 */
import { localTimeIn } from './dates.js';

/**
 * A link's schedule is two wall-clock times in its page's time zone, `YYYY-MM-DDTHH:mm`, each
 * optional: shown from `from` (inclusive) until `until` (exclusive). Wall-clock times compare as
 * strings, so the rule needs no offsets and follows the zone's clock through daylight saving.
 */
export interface LinkSchedule {
  from: string | null;
  until: string | null;
}

/** Whether a link with this schedule is shown at `now` on a page in `timeZone`. */
export function isWithinSchedule(schedule: LinkSchedule, timeZone: string, now: Date = new Date()): boolean {
  if (schedule.from === null && schedule.until === null) return true;
  const local = localTimeIn(timeZone, now);
  return (schedule.from === null || schedule.from <= local) && (schedule.until === null || local < schedule.until);
}

/** What the page's rules for its links read: whether the owner has Plus now, and the page's time zone. */
export interface LinkPage {
  plus: boolean;
  timeZone: string;
}

/** What the rules read of a link: the owner's switches as stored (a schedule time may be unset). */
export interface LinkSettings {
  hidden: boolean;
  visibleFrom?: string | null;
  visibleUntil?: string | null;
  highlighted: boolean;
}

/**
 * Whether visitors see a link now: never when hidden; with Plus only inside its schedule. Without
 * Plus a schedule is kept but does not apply, so the link shows as any other.
 */
export function isShownNow(link: Omit<LinkSettings, 'highlighted'>, page: LinkPage, now: Date = new Date()): boolean {
  if (link.hidden) return false;
  const schedule = { from: link.visibleFrom ?? null, until: link.visibleUntil ?? null };
  return !page.plus || isWithinSchedule(schedule, page.timeZone, now);
}

/** Whether the page draws the link prominently: the owner's choice, while they have Plus. */
export function isHighlightedNow(link: Pick<LinkSettings, 'highlighted'>, page: LinkPage): boolean {
  return page.plus && link.highlighted;
}

/** The links visitors see now, in order, each with the highlight as it applies now. */
export function linksShownNow<T extends LinkSettings>(
  links: readonly T[],
  page: LinkPage,
  now: Date = new Date(),
): T[] {
  return links
    .filter((link) => isShownNow(link, page, now))
    .map((link) => ({ ...link, highlighted: isHighlightedNow(link, page) }));
}
