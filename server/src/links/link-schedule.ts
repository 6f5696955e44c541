import { badUserInput } from '../graphql/errors.js';
import type { LinkSchedule } from '../rules/links.js';

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** A wall-clock time as stored, `YYYY-MM-DDTHH:mm` (seconds dropped), or BAD_USER_INPUT on `field`. */
export function parseLocalTime(value: string, field: string): string {
  const typed = value.trim();
  const match = LOCAL_TIME.exec(typed.length === 19 && typed.endsWith(':00') ? typed.slice(0, 16) : typed);
  const [year, month, day, hour, minute] = match ? match.slice(1).map(Number) : [];
  if (year === undefined || month === undefined || day === undefined || hour === undefined || minute === undefined) {
    throw badUserInput(`${field.replace(/^input\./, '')} must be a date and time written as YYYY-MM-DDTHH:mm.`, field);
  }
  const probe = new Date(Date.UTC(2000, 0, 1));
  probe.setUTCFullYear(year, month - 1, day);
  const real =
    year >= 1 && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day && hour <= 23 && minute <= 59;
  if (!real) throw badUserInput(`${field.replace(/^input\./, '')} is not a real date and time.`, field);
  return typed.slice(0, 16);
}

/** Throws BAD_USER_INPUT on `input.visibleUntil` unless the window ends after it starts. */
export function checkSchedule(schedule: LinkSchedule): LinkSchedule {
  if (schedule.from !== null && schedule.until !== null && schedule.until <= schedule.from) {
    throw badUserInput('The link must stop showing after it starts.', 'input.visibleUntil');
  }
  return schedule;
}
