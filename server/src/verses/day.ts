import { badUserInput } from '../graphql/errors.js';

/** A calendar day: the ISO date and its month-day key in the verse calendar. */
export interface CalendarDay {
  date: string;
  monthDay: string;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses `YYYY-MM-DD`, rejecting dates that do not exist (2027-02-29, 2026-13-01). */
export function parseIsoDate(value: string, field = 'date'): CalendarDay {
  const match = ISO_DATE.exec(value);
  const [year, month, day] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  const probe = new Date(Date.UTC(2000, 0, 1));
  probe.setUTCFullYear(year, month - 1, day);
  const valid =
    match !== null &&
    year >= 1 &&
    probe.getUTCFullYear() === year &&
    probe.getUTCMonth() === month - 1 &&
    probe.getUTCDate() === day;
  if (!valid) throw badUserInput(`${field} must be a real date written as YYYY-MM-DD.`, field);
  return { date: value, monthDay: value.slice(5) };
}

/**
 * Formatters by time zone as written by callers. Valid zones are a finite set (a few hundred, in
 * any letter case), so the cap is only a guard; invalid ones throw and are never cached.
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const MAX_CACHED_TIME_ZONES = 2000;

function dateFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dateFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    if (dateFormats.size >= MAX_CACHED_TIME_ZONES) dateFormats.clear();
    dateFormats.set(timeZone, format);
  }
  return format;
}

/** Today's date in an IANA time zone, e.g. `Europe/Oslo`. */
export function todayIn(timeZone: string, now: Date = new Date(), field = 'timeZone'): CalendarDay {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = dateFormat(timeZone).formatToParts(now);
  } catch {
    throw badUserInput(`${field} must be an IANA time zone such as Europe/London.`, field);
  }
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((item) => item.type === type)?.value ?? '';
  return parseIsoDate(`${part('year').padStart(4, '0')}-${part('month')}-${part('day')}`, field);
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

/** The latest date anywhere on Earth at `now` (UTC+14): no day after it has begun anywhere. */
export function latestToday(now: Date = new Date()): string {
  return new Date(now.getTime() + 14 * 3_600_000).toISOString().slice(0, 10);
}

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** The date, hour (0–23) and minute on the clocks of a valid IANA time zone at `now`. */
export function clockIn(timeZone: string, now: Date): { date: string; hour: number; minute: number } {
  let format = clockFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    if (clockFormats.size >= MAX_CACHED_TIME_ZONES) clockFormats.clear();
    clockFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((item) => item.type === type)?.value ?? '';
  return {
    date: `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}`,
    hour: Number(part('hour')),
    minute: Number(part('minute')),
  };
}

/** The earliest day a verse card is drawn for (the `/verse/` pages go further back, without one). */
export const FIRST_CARD_DAY = '2000-01-01';
