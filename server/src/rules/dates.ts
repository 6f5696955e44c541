/**
 * Calendar days and wall clocks, as the verse calendar, the sign-up's birthday and the links'
 * schedules read them (`@rules/dates`). Wrong input gives null here; each caller says what was
 * wrong in its own words (verses/day.ts, accounts/signup-checks.ts, the web's forms).
 */

/** A calendar day: the ISO date and its month-day key in the verse calendar. */
export interface CalendarDay {
  date: string;
  monthDay: string;
}

/** The zone a page's times are read in when its member never chose one. */
export const DEFAULT_TIME_ZONE = 'UTC';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD` as a calendar day, or null when it is not written so or does not exist (2027-02-29). */
export function readIsoDate(value: string): CalendarDay | null {
  const match = ISO_DATE.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const probe = new Date(Date.UTC(2000, 0, 1));
  probe.setUTCFullYear(year, month - 1, day);
  const real =
    year >= 1 && probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
  return real ? { date: value, monthDay: value.slice(5) } : null;
}

/**
 * Formatters by time zone as written by callers. Valid zones are a finite set (a few hundred, in
 * any letter case), so the cap is only a guard; invalid ones throw and are never cached.
 */
const clockFormats = new Map<string, Intl.DateTimeFormat>();
const MAX_CACHED_TIME_ZONES = 2000;

/** A moment on the clocks of a time zone: the date, hour (0–23) and minute. */
export interface Clock {
  date: string;
  hour: number;
  minute: number;
}

/** The clocks of an IANA time zone at `now`; a RangeError when the runtime does not know the zone. */
export function clockIn(timeZone: string, now: Date): Clock {
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

/** The wall-clock time in `timeZone` at `now`, `YYYY-MM-DDTHH:mm` (as links' schedules are written). */
export function localTimeIn(timeZone: string, now: Date = new Date()): string {
  const { date, hour, minute } = clockIn(timeZone, now);
  return `${date}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/** The latest date anywhere on Earth at `now` (UTC+14): no day after it has begun anywhere. */
export function latestToday(now: Date = new Date()): string {
  return new Date(now.getTime() + 14 * 3_600_000).toISOString().slice(0, 10);
}
