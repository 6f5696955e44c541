import { EventEmitter, on } from 'node:events';
import { clockIn } from '../rules/dates.js';

/** The longest a timer waits before looking at the clock again (a day, with room for a DST change). */
const MAX_WAIT_MS = 25 * 60 * 60 * 1000;

/** Milliseconds from `now` to the next midnight in `timeZone`, from its wall clock (zones differ by whole minutes). */
export function untilMidnight(timeZone: string, now: Date): number {
  const { hour, minute } = clockIn(timeZone, now);
  return (24 * 60 - (hour * 60 + minute)) * 60_000 - (now.getTime() % 60_000);
}

interface Zone {
  listeners: number;
  date: string;
  timer: NodeJS.Timeout | undefined;
}

/**
 * The turning of the day in the time zones someone listens to: one timer per zone, set for its next
 * midnight, and none for a zone nobody listens to. Each instance keeps its own (a day turns
 * everywhere at once, so nothing crosses Redis): the events are the new date, `YYYY-MM-DD`.
 */
export class DayTurns {
  private readonly events = new EventEmitter();
  private readonly zones = new Map<string, Zone>();

  constructor(private readonly now: () => Date = () => new Date()) {
    this.events.setMaxListeners(0);
  }

  /** Time zones with a timer now (for tests and metrics). */
  get watched(): number {
    return this.zones.size;
  }

  /** The new date in `timeZone` each time its day turns, until `signal` aborts. */
  async *turns(timeZone: string, signal: AbortSignal): AsyncGenerator<string> {
    const stream = on(this.events, timeZone, { signal });
    this.watch(timeZone);
    try {
      for await (const [date] of stream) yield date as string;
    } catch (error) {
      if (!signal.aborted) throw error;
    } finally {
      this.unwatch(timeZone);
    }
  }

  close(): void {
    for (const zone of this.zones.values()) clearTimeout(zone.timer);
    this.zones.clear();
    this.events.removeAllListeners();
  }

  private watch(timeZone: string): void {
    const zone = this.zones.get(timeZone);
    if (zone) {
      zone.listeners++;
      return;
    }
    const fresh: Zone = { listeners: 1, date: clockIn(timeZone, this.now()).date, timer: undefined };
    this.zones.set(timeZone, fresh);
    this.schedule(timeZone, fresh);
  }

  private unwatch(timeZone: string): void {
    const zone = this.zones.get(timeZone);
    if (!zone) return;
    zone.listeners--;
    if (zone.listeners > 0) return;
    clearTimeout(zone.timer);
    this.zones.delete(timeZone);
  }

  private schedule(timeZone: string, zone: Zone): void {
    // A second past midnight: a timer may fire a little early, and the date is read when it fires.
    const wait = Math.min(MAX_WAIT_MS, Math.max(1000, untilMidnight(timeZone, this.now()) + 1000));
    zone.timer = setTimeout(() => {
      const date = clockIn(timeZone, this.now()).date;
      if (date !== zone.date) {
        zone.date = date;
        this.events.emit(timeZone, date);
      }
      if (this.zones.get(timeZone) === zone) this.schedule(timeZone, zone);
    }, wait);
    zone.timer.unref();
  }
}
