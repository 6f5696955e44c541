/**
 * When a scheduled link shows, as a pure rule the server and the web's editor preview share
 * (`@rules/link-schedule`): this module imports nothing, so the web bundles only these lines.
 */

/**
 * A link's schedule is two wall-clock times in its page's time zone, `YYYY-MM-DDTHH:mm`, each
 * optional: shown from `from` (inclusive) until `until` (exclusive). Wall-clock times compare as
 * strings, so the rule needs no offsets and follows the zone's clock through daylight saving.
 */
export interface LinkSchedule {
  from: string | null;
  until: string | null;
}

const clocks = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock time in `timeZone` at `now`, `YYYY-MM-DDTHH:mm`. */
export function localTimeIn(timeZone: string, now: Date = new Date()): string {
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    // Zones come from stored, checked profiles: a few hundred at most.
    clocks.set(timeZone, clock);
  }
  const parts = clock.formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((each) => each.type === type)?.value ?? '';
  return `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
}

/** Whether a link with this schedule is shown at `now` on a page in `timeZone`. */
export function isWithinSchedule(schedule: LinkSchedule, timeZone: string, now: Date = new Date()): boolean {
  if (schedule.from === null && schedule.until === null) return true;
  const local = localTimeIn(timeZone, now);
  return (schedule.from === null || schedule.from <= local) && (schedule.until === null || local < schedule.until);
}
