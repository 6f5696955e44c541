import type { Repository } from 'typeorm';
import { verseCalendar } from './calendar.js';
import type { CalendarDay } from './day.js';
import { resolveDay } from './day.js';
import { parseReference } from './reference.js';
import type { VerseRecord } from './verse.entity.js';
import { Verse } from './verse.types.js';

/** Hebrews 3:4, every new profile's first verse (the original product's default). */
export const DEFAULT_VERSE_ID = 'Heb.3.4';

function toVerse(record: VerseRecord): Verse {
  return Object.assign(new Verse(), {
    id: record.id,
    ref: record.ref,
    text: record.text,
    translation: record.translation,
  });
}

/** Looks verses up and picks the verse of the day. Verse texts never change, so lookups are cached. */
export class VerseService {
  private readonly cache = new Map<string, Promise<Verse | null>>();

  constructor(private readonly records: Repository<VerseRecord>) {}

  /** The verse with this OSIS id (`Heb.3.4`), or null. */
  byId(id: string): Promise<Verse | null> {
    let found = this.cache.get(id);
    if (!found) {
      found = this.records.findOneBy({ id }).then((record) => (record ? toVerse(record) : null));
      found.catch(() => this.cache.delete(id));
      this.cache.set(id, found);
    }
    return found;
  }

  /** The verse a written reference names ("John 3:16", "1 Cor 13:4"), or null when there is none. */
  async byReference(ref: string): Promise<Verse | null> {
    const id = parseReference(ref);
    return id === null ? null : this.byId(id);
  }

  /** The calendar's verse for a day. */
  async forDay(day: CalendarDay): Promise<Verse> {
    const id = verseCalendar[day.monthDay];
    const verse = id === undefined ? null : await this.byId(id);
    if (!verse) throw new Error(`The verse calendar has no stored verse for ${day.monthDay}`);
    return verse;
  }

  /** The verse of the day for an ISO date, or for today in a time zone (UTC when neither is given). */
  ofTheDay(request: { date?: string | null; timeZone?: string | null }, now = new Date()): Promise<Verse> {
    return this.forDay(resolveDay(request, now));
  }
}
