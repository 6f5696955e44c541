import type { UserRecord } from '../members/user.entity.js';
import { isPlus, requirePlus } from '../members/plus.js';
import { DEFAULT_TIME_ZONE } from '../rules/dates.js';
import type { LinkPage, LinkSchedule } from '../rules/links.js';

/** The page rules of an owner and their profile, reading Plus through the live rule. */
export function linkPageOf(owner: Pick<UserRecord, 'stripeRole'>, profile: { timeZone: string | null }): LinkPage {
  return { plus: isPlus(owner), timeZone: profile.timeZone ?? DEFAULT_TIME_ZONE };
}

/** The page rules of a public profile, whose `plus` was read through the live rule. */
export function publicLinkPage(profile: { plus: boolean; timeZone: string | null }): LinkPage {
  return { plus: profile.plus, timeZone: profile.timeZone ?? DEFAULT_TIME_ZONE };
}

/** Throws PLUS_REQUIRED when a free member sets a schedule or a highlight (clearing them is free). */
export function requireAllowedLinkChange(
  owner: Pick<UserRecord, 'stripeRole'>,
  change: { schedule?: Partial<LinkSchedule>; highlighted?: boolean | null },
): void {
  if (change.schedule?.from != null || change.schedule?.until != null) requirePlus(owner, 'Scheduling a link');
  if (change.highlighted === true) requirePlus(owner, 'Highlighting a link');
}
