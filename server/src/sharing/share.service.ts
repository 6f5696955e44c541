import { createHash } from 'node:crypto';
import type { Loaders } from '../graphql/context.js';
import type { ProfileService } from '../profiles/profile.service.js';
import { Theme } from '../profiles/appearance.js';
import { latestToday } from '../verses/day.js';
import type { VerseService } from '../verses/verse.service.js';
import type { CardContent } from './card-render.js';
import { renderCard } from './card-render.js';

/** The earliest day a verse card is drawn for (the `/verse/` pages go further back, without one). */
export const FIRST_CARD_DAY = '2000-01-01';

/** How many rendered cards are kept (about 50–100 KB each): the most recently asked for. */
const CARD_CACHE_SIZE = 200;

/** An image ready to send, with the validator that changes whenever what it shows does. */
export interface ShareImage {
  body: Buffer;
  etag: string;
}

/**
 * What a member's page is shared with: its QR code, and the Open Graph / Twitter cards of the page
 * and of the verse of the day. Cards are rendered once per content (name, theme, verse) and kept
 * in a bounded cache, so a page shared widely is drawn once a day, and memory stays flat.
 */
export class ShareService {
  private readonly cards = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly profiles: ProfileService,
    private readonly verses: VerseService,
    private readonly loaders: () => Loaders,
    private readonly publicUrl: string,
  ) {}

  /** The page's address, as its QR code and share sheet carry it. */
  pageUrl(username: string): string {
    return `${this.publicUrl}/@${encodeURIComponent(username)}`;
  }

  /** The card of a public page today (UTC), or null when visitors cannot see the page. */
  async pageCard(username: string): Promise<ShareImage | null> {
    const loaders = this.loaders();
    const profile = await this.profiles.findPublic(username, loaders);
    if (!profile) return null;
    const verse = await this.profiles.verseFor(profile.uid, loaders, {});
    return this.card({
      theme: profile.appearance.theme,
      title: profile.name,
      subtitle: `@${profile.username}`,
      verseText: verse.text,
      verseRef: verse.ref,
    });
  }

  /**
   * The card of the verse of `date` (`YYYY-MM-DD`), or null for a date that is not one, a day that
   * has not begun anywhere yet, or one before `FIRST_CARD_DAY`: each card costs a render, so the
   * days that can be asked for are bounded.
   */
  async verseCard(date: string, now: Date = new Date()): Promise<ShareImage | null> {
    const day = /^\d{4}-\d{2}-\d{2}$/.test(date) ? new Date(`${date}T00:00:00Z`) : null;
    if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date) return null;
    if (date < FIRST_CARD_DAY || date > latestToday(now)) return null;
    const verse = await this.verses.ofTheDay({ date });
    const label = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(day);
    return this.card({
      theme: Theme.lightTheme,
      title: 'Verse of the day',
      subtitle: label,
      verseText: verse.text,
      verseRef: verse.ref,
    });
  }

  /** The QR code of a public page's address, or null when visitors cannot see the page. */
  async pageQr(username: string, format: 'svg' | 'png'): Promise<ShareImage | null> {
    const profile = await this.profiles.findPublic(username, this.loaders());
    if (!profile) return null;
    const url = this.pageUrl(profile.username);
    const options = { errorCorrectionLevel: 'M' as const, margin: 2 };
    // Loaded at the first code rather than at start (start-up time, quality.md P9).
    const { default: QRCode } = await import('qrcode');
    const body =
      format === 'svg'
        ? Buffer.from(await QRCode.toString(url, { ...options, type: 'svg' }))
        : await QRCode.toBuffer(url, { ...options, type: 'png', width: 512 });
    return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
  }

  private async card(content: CardContent): Promise<ShareImage> {
    const key = createHash('sha256').update(JSON.stringify(content)).digest('base64url').slice(0, 22);
    let rendering = this.cards.get(key);
    if (rendering) {
      // Most recently used last: a Map iterates in insertion order, so the first key is the oldest.
      this.cards.delete(key);
    } else {
      rendering = renderCard(content);
      void rendering.catch(() => this.cards.delete(key));
    }
    this.cards.set(key, rendering);
    while (this.cards.size > CARD_CACHE_SIZE) {
      const oldest = this.cards.keys().next().value;
      if (oldest === undefined) break;
      this.cards.delete(oldest);
    }
    return { body: await rendering, etag: `"${key}"` };
  }
}
