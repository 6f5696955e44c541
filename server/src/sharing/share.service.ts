import { createHash } from 'node:crypto';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Loaders } from '../graphql/context.js';
import { rateLimitKey } from '../http/address-key.js';
import type { ProfileService } from '../profiles/profile.service.js';
import { Theme } from '../profiles/appearance.js';
import { latestToday } from '../rules/dates.js';
import { FIRST_CARD_DAY } from '../verses/day.js';
import { DEFAULT_TRANSLATION } from '../verses/translation.js';
import type { Translation } from '../verses/translation.js';
import type { VerseService } from '../verses/verse.service.js';
import type { ByteCache } from '../work/byte-cache.js';
import type { HeavyLane } from '../work/capacity.js';
import type { WorkerPool } from '../work/worker-pool.js';
import { workerFile } from '../work/worker-pool.js';
import type { CardContent } from './card-render.js';
import { CARD_HEIGHT, CARD_WIDTH, cardTree } from './card-render.js';
import type { CardJob, QrJob } from './card.worker.js';

const CARD_WORKER = workerFile(import.meta.url, 'card.worker');

/**
 * A card's date as people read it; made once, at the first card (each formatter costs about a
 * millisecond to make, and the process's first ~10 ms: ICU's data, which nothing else at start needs).
 */
let dayLabel: Intl.DateTimeFormat | undefined;

/**
 * An image to send: the validator that changes whenever what it shows does, known before anything
 * is drawn (a client holding it gets 304 for free), and the bytes, drawn or kept.
 */
export interface ShareImage {
  etag: string;
  body(): Promise<Buffer>;
}

/** One address asked for more new images than its share: the route answers 429 with `Retry-After`. */
export class RenderLimited extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('Too many new images asked for; try again in a minute.');
    this.name = 'RenderLimited';
  }
}

/** Members' photos as the card draws them (PNG); null when the photo is no longer shown. */
export interface SharePhotos {
  png(uid: string, version: string): Promise<Buffer | null>;
}

export interface ShareWork {
  /** Drawing's lane in the bound on heavy work (uploads have their own). */
  capacity: HeavyLane;
  /** The threads cards and codes are drawn in. */
  pool: WorkerPool;
  /** Drawn images, by content. */
  cache: ByteCache;
  /** Images drawn (not found kept) per client address. */
  renders: RateLimiterAbstract;
}

/** The key of what an image shows, which is also its ETag. */
const contentKey = (kind: string, content: unknown): string =>
  createHash('sha256')
    .update(`${kind}\n${JSON.stringify(content)}`)
    .digest('base64url')
    .slice(0, 22);

/**
 * What a member's page is shared with: its QR code, and the Open Graph / Twitter cards of the page
 * and of the verse of the day. Each image is drawn once per content (name, theme, verse; the page's
 * address) in the worker pool, never on the event loop, and kept by that content (`ByteCache`):
 * the same card asked for a thousand times is drawn once, and asked for at once it is drawn once
 * too. Only drawing counts against an address's limit; what is kept is free.
 */
export class ShareService {
  private readonly drawing = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly profiles: ProfileService,
    private readonly verses: VerseService,
    private readonly loaders: () => Loaders,
    private readonly publicUrl: string,
    private readonly work: ShareWork,
    private readonly photos: SharePhotos | null = null,
  ) {}

  /** The page's address, as its QR code and share sheet carry it. */
  pageUrl(username: string): string {
    return `${this.publicUrl}/@${encodeURIComponent(username)}`;
  }

  /** The card of a public page today (UTC), or null when visitors cannot see the page. */
  async pageCard(username: string, client: string): Promise<ShareImage | null> {
    const loaders = this.loaders();
    const profile = await this.profiles.findPublic(username, loaders);
    if (!profile) return null;
    // The page's own translation (the member's choice), as a visitor without one of theirs reads it.
    const [verse, photoVersion] = await Promise.all([
      this.profiles.verseFor(profile.uid, loaders, {}),
      loaders.photoVersionByUid.load(profile.uid),
    ]);
    const photos = this.photos;
    return this.card(
      {
        theme: profile.appearance.theme,
        title: profile.name,
        subtitle: `@${profile.username}`,
        verseText: verse.text,
        verseRef: verse.ref,
        translation: verse.translation,
        photo: photoVersion ? `${profile.uid}/${photoVersion}` : null,
      },
      client,
      photoVersion && photos ? () => photos.png(profile.uid, photoVersion) : null,
    );
  }

  /**
   * The card of the verse of `date` (`YYYY-MM-DD`), or null for a date that is not one, a day that
   * has not begun anywhere yet, or one before `FIRST_CARD_DAY`: each card costs a render, so the
   * days that can be asked for are bounded.
   */
  async verseCard(
    date: string,
    client: string,
    translation: Translation = DEFAULT_TRANSLATION,
    now: Date = new Date(),
  ): Promise<ShareImage | null> {
    const day = /^\d{4}-\d{2}-\d{2}$/.test(date) ? new Date(`${date}T00:00:00Z`) : null;
    if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date) return null;
    if (date < FIRST_CARD_DAY || date > latestToday(now)) return null;
    const verse = await this.verses.ofTheDay({ date, translation });
    dayLabel ??= new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
    const label = dayLabel.format(day);
    return this.card(
      {
        theme: Theme.lightTheme,
        title: 'Verse of the day',
        subtitle: label,
        verseText: verse.text,
        verseRef: verse.ref,
        translation: verse.translation,
        photo: null,
      },
      client,
      null,
    );
  }

  /** The QR code of a public page's address, or null when visitors cannot see the page. */
  async pageQr(username: string, format: 'svg' | 'png', client: string): Promise<ShareImage | null> {
    const profile = await this.profiles.findPublic(username, this.loaders());
    if (!profile) return null;
    const job: QrJob = { url: this.pageUrl(profile.username), format };
    const key = contentKey('qr', job);
    return { etag: `"${key}"`, body: () => this.kept(key, client, () => this.draw('qr', job)) };
  }

  /** A card of `content`; `photo` reads its photo's PNG, only when the card is to be drawn. */
  private card(content: CardContent, client: string, photo: (() => Promise<Buffer | null>) | null): ShareImage {
    const key = contentKey('card', content);
    const draw = async () => {
      const png = photo ? await photo() : null;
      const photoDataUrl = png ? `data:image/png;base64,${png.toString('base64')}` : null;
      const job: CardJob = { tree: cardTree(content, { photoDataUrl }), width: CARD_WIDTH, height: CARD_HEIGHT };
      return this.draw('card', job);
    };
    return { etag: `"${key}"`, body: () => this.kept(key, client, draw) };
  }

  /** The kept image of `key`, or one drawn now (once, however many ask at the same time). */
  private async kept(key: string, client: string, draw: () => Promise<Buffer>): Promise<Buffer> {
    const kept = await this.work.cache.get(key);
    if (kept) return kept;
    let drawing = this.drawing.get(key);
    if (!drawing) {
      await this.takeRender(client);
      drawing = draw().then((body) => {
        this.work.cache.set(key, body);
        return body;
      });
      this.drawing.set(key, drawing);
      void drawing.finally(() => this.drawing.delete(key)).catch(() => undefined);
    }
    return drawing;
  }

  /** Counts a new drawing against the client's address (an IPv6 one by its /64, as sign-ins are). */
  private async takeRender(client: string): Promise<void> {
    try {
      await this.work.renders.consume(rateLimitKey(client));
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      throw new RenderLimited(Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
    }
  }

  private async draw(name: 'card' | 'qr', job: CardJob | QrJob): Promise<Buffer> {
    const bytes = await this.work.capacity.run(() => this.work.pool.run<Uint8Array>(CARD_WORKER, name, job));
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
}
