import type { Repository } from 'typeorm';
import { In } from 'typeorm';
import { verseCalendar } from './calendar.js';
import type { CalendarDay } from '../rules/dates.js';
import { resolveDay } from './day.js';
import { parseReference } from './reference.js';
import { DEFAULT_TRANSLATION, Translation } from './translation.js';
import type { VerseRecord } from './verse.entity.js';
import { Verse } from './verse.types.js';

/** Hebrews 3:4, every new profile's first verse (the original product's default). */
export const DEFAULT_VERSE_ID = 'Heb.3.4';

/** Lookups kept at once; the calendar's verses in both translations fit many times over. */
const MAX_CACHED_VERSES = 5000;

function toVerse(record: VerseRecord): Verse {
  return Object.assign(new Verse(), {
    id: record.id,
    ref: record.ref,
    text: record.text,
    translation: record.translation,
  });
}

/**
 * Looks verses up and picks the verse of the day. The texts live in the database, not in memory;
 * verse texts never change, so recent lookups are cached.
 */
export class VerseService {
  private readonly cache = new Map<string, Promise<Verse | null>>();

  constructor(private readonly records: Repository<VerseRecord>) {}

  /**
   * The verse with this OSIS id (`Heb.3.4`) in `translation`, or null. Where the WEB leaves a verse
   * out (Acts 8:37), the KJV's text is given, marked as KJV.
   */
  async byId(id: string, translation: Translation = DEFAULT_TRANSLATION): Promise<Verse | null> {
    const found = await this.lookUp(id, translation);
    return found ?? (translation === Translation.KJV ? null : this.lookUp(id, Translation.KJV));
  }

  /** The verses with these ids, in their order (null where there is none), in one query at most per translation. */
  async byIds(ids: readonly string[], translation: Translation = DEFAULT_TRANSLATION): Promise<(Verse | null)[]> {
    await this.prefetch(ids, translation);
    if (translation !== Translation.KJV) await this.prefetch(ids, Translation.KJV);
    return Promise.all(ids.map((id) => this.byId(id, translation)));
  }

  /** Reads the uncached ones of `ids` into the cache with one query. */
  private async prefetch(ids: readonly string[], translation: Translation): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.cache.has(`${translation} ${id}`));
    if (missing.length === 0) return;
    const records = await this.records.findBy({ id: In(missing), translation });
    if (this.cache.size + missing.length > MAX_CACHED_VERSES) this.cache.clear();
    const found = new Map(records.map((record) => [record.id, toVerse(record)]));
    for (const id of missing) this.cache.set(`${translation} ${id}`, Promise.resolve(found.get(id) ?? null));
  }

  private lookUp(id: string, translation: Translation): Promise<Verse | null> {
    const key = `${translation} ${id}`;
    let found = this.cache.get(key);
    if (!found) {
      found = this.records.findOneBy({ id, translation }).then((record) => (record ? toVerse(record) : null));
      found.catch(() => this.cache.delete(key));
      if (this.cache.size >= MAX_CACHED_VERSES) this.cache.clear();
      this.cache.set(key, found);
    }
    return found;
  }

  /** The verse a written reference names ("John 3:16", "1 Cor 13:4"), or null when there is none. */
  async byReference(ref: string, translation: Translation = DEFAULT_TRANSLATION): Promise<Verse | null> {
    const id = await parseReference(ref);
    return id === null ? null : this.byId(id, translation);
  }

  /** The calendar's verse for a day. */
  async forDay(day: CalendarDay, translation: Translation = DEFAULT_TRANSLATION): Promise<Verse> {
    const id = verseCalendar[day.monthDay];
    const verse = id === undefined ? null : await this.byId(id, translation);
    if (!verse) throw new Error(`The verse calendar has no stored verse for ${day.monthDay}`);
    return verse;
  }

  /** The verse of the day for an ISO date, or for today in a time zone (UTC when neither is given). */
  ofTheDay(
    request: { date?: string | null; timeZone?: string | null; translation?: Translation | null },
    now = new Date(),
  ): Promise<Verse> {
    return this.forDay(resolveDay(request, now), request.translation ?? DEFAULT_TRANSLATION);
  }
}
