/**
 * The verse calendar's reading of a request's day: the rules of dates (rules/dates.ts) with the
 * API's refusals.
 */
import { badUserInput } from '../graphql/errors.js';
import type { CalendarDay } from '../rules/dates.js';
import { clockIn, readIsoDate } from '../rules/dates.js';

/** `YYYY-MM-DD` as a calendar day, or BAD_USER_INPUT on `field` when it is not a real date (2027-02-29). */
export function parseIsoDate(value: string, field = 'date'): CalendarDay {
  const day = readIsoDate(value);
  if (day === null) throw badUserInput(`${field} must be a real date written as YYYY-MM-DD.`, field);
  return day;
}

/** Today's date in an IANA time zone, e.g. `Europe/Oslo`. */
export function todayIn(timeZone: string, now: Date = new Date(), field = 'timeZone'): CalendarDay {
  let date: string;
  try {
    date = clockIn(timeZone, now).date;
  } catch {
    throw badUserInput(`${field} must be an IANA time zone such as Europe/London.`, field);
  }
  return parseIsoDate(date, field);
}

/**
 * The day a request means: the given ISO date, or else today in the given time zone, or else
 * today in UTC. A given time zone is checked even when a date is given.
 */
export function resolveDay(request: { date?: string | null; timeZone?: string | null }, now = new Date()): CalendarDay {
  const zoned = request.timeZone == null ? undefined : todayIn(request.timeZone, now);
  if (request.date != null) return parseIsoDate(request.date);
  return zoned ?? todayIn('UTC', now);
}

/** The earliest day a verse card is drawn for (the `/verse/` pages go further back, without one). */
export const FIRST_CARD_DAY = '2000-01-01';
