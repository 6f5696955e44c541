import type { UserRecord } from '../members/user.entity.js';
import { isPlus, requirePlus } from '../members/plus.js';
import { DEFAULT_TIME_ZONE } from '../profiles/time-zone.js';
import type { LinkSchedule } from './schedule-window.js';
import { isWithinSchedule } from './schedule-window.js';
import type { LinkRecord } from './link.entity.js';

/** What the page's rules for its links read: whether the owner has Plus now, and the page's time zone. */
export interface LinkPage {
  plus: boolean;
  timeZone: string;
}

/** The page rules of an owner and their profile, reading Plus through the live rule. */
export function linkPageOf(owner: Pick<UserRecord, 'stripeRole'>, profile: { timeZone: string | null }): LinkPage {
  return { plus: isPlus(owner), timeZone: profile.timeZone ?? DEFAULT_TIME_ZONE };
}

/** The page rules of a public profile, whose `plus` was read through the live rule. */
export function publicLinkPage(profile: { plus: boolean; timeZone: string | null }): LinkPage {
  return { plus: profile.plus, timeZone: profile.timeZone ?? DEFAULT_TIME_ZONE };
}

/**
 * Whether visitors see a link now: never when hidden; with Plus only inside its schedule. Without
 * Plus a schedule is kept but does not apply, so the link shows as any other.
 */
export function isShownNow(
  link: Pick<LinkRecord, 'hidden' | 'visibleFrom' | 'visibleUntil'>,
  page: LinkPage,
  now: Date = new Date(),
): boolean {
  if (link.hidden) return false;
  return !page.plus || isWithinSchedule({ from: link.visibleFrom, until: link.visibleUntil }, page.timeZone, now);
}

/** Whether the page draws the link prominently: the owner's choice, while they have Plus. */
export function isHighlightedNow(link: Pick<LinkRecord, 'highlighted'>, page: LinkPage): boolean {
  return page.plus && link.highlighted;
}

/** Throws PLUS_REQUIRED when a free member sets a schedule or a highlight (clearing them is free). */
export function requireAllowedLinkChange(
  owner: Pick<UserRecord, 'stripeRole'>,
  change: { schedule?: Partial<LinkSchedule>; highlighted?: boolean | null },
): void {
  if (change.schedule?.from != null || change.schedule?.until != null) requirePlus(owner, 'Scheduling a link');
  if (change.highlighted === true) requirePlus(owner, 'Highlighting a link');
}
