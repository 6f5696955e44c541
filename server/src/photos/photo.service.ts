import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { DataSource } from 'typeorm';
import { changingMemberRows } from '../db/member-rows.js';
import type { PageChanged } from '../profiles/page-changes.js';
import { noPageChanges } from '../profiles/page-changes.js';
import type { AuthUser } from '../graphql/context.js';
import { UserRecord } from '../members/user.entity.js';
import { requireOwnPage } from '../profiles/own-page.js';
import type { ProfileRecord } from '../profiles/profile.entity.js';
import { canVisitMember } from '../rules/page-access.js';
import { PhotoRecord } from './photo.entity.js';
import { CapacityFull } from '../work/capacity.js';
import type { HeavyLane } from '../work/capacity.js';
import { photoAsPng, processPhoto } from './photo.pipeline.js';

/** A member sent more photos this hour than anyone choosing one needs: the route answers 429. */
export class UploadsLimited extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('You have sent many photos this hour. Please try again later.');
    this.name = 'UploadsLimited';
  }
}

/** The address a photo is served at: it changes whenever the photo does. */
export function photoPath(uid: string, version: string): string {
  return `/p/${uid}/${version}.webp`;
}

/** Members' profile photos: setting, removing and reading them. */
export class PhotoService {
  constructor(
    private readonly dataSource: DataSource,
    /** Uploads' lane in the bound on heavy work (cards and codes have their own). */
    private readonly capacity: HeavyLane,
    /** Uploads per member per hour. */
    private readonly uploads: RateLimiterAbstract,
    private readonly pageChanged: PageChanged = noPageChanges,
  ) {}

  /**
   * Makes `upload` the member's photo, after `processPhoto` accepted it; a refused upload changes
   * nothing. Answers the new photo's address. Each upload counts against the member's hourly
   * limit (`UploadsLimited`), except one the server was too busy to take (`CapacityFull`).
   */
  async set(actor: AuthUser, upload: Buffer): Promise<string> {
    try {
      await this.uploads.consume(actor.id);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      throw new UploadsLimited(Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
    }
    // Decoding happens before the transaction, so a slow image never holds the database.
    const { webp, version } = await this.capacity
      .run(() => processPhoto(upload))
      .catch(async (error: unknown) => {
        if (error instanceof CapacityFull) await this.uploads.reward(actor.id, 1).catch(() => undefined);
        throw error;
      });
    // A change to this member's rows alone: other members' kept public answers stay.
    await changingMemberRows([actor.id], () =>
      this.dataSource.transaction(async (manager) => {
        await requireOwnPage(manager, actor);
        await manager.upsert(
          PhotoRecord,
          { uid: actor.id, version, webp: webp.toString('base64'), updatedAt: new Date() },
          ['uid'],
        );
      }),
    );
    this.pageChanged(actor.id);
    return photoPath(actor.id, version);
  }

  /** Takes the member's photo away (their page shows the initial again); nothing happens without one. */
  async remove(actor: AuthUser): Promise<ProfileRecord> {
    const profile = await changingMemberRows([actor.id], () =>
      this.dataSource.transaction(async (manager) => {
        const { profile: own } = await requireOwnPage(manager, actor);
        await manager.delete(PhotoRecord, { uid: actor.id });
        return own;
      }),
    );
    this.pageChanged(actor.id);
    return profile;
  }

  /**
   * The WebP of the photo at `photoPath(uid, version)`, or null when that is not the member's photo
   * now, or when an operator hid the member's page or banned them (an abusive photo goes with it).
   */
  async image(uid: string, version: string): Promise<Buffer | null> {
    const [photo, owner] = await Promise.all([
      this.dataSource.getRepository(PhotoRecord).findOneBy({ uid, version }),
      this.dataSource.getRepository(UserRecord).findOneBy({ uid }),
    ]);
    // A photo follows its member, not the page's switches: the owner's editor shows it on a closed page.
    if (!photo || !canVisitMember(owner).allowed) return null;
    return Buffer.from(photo.webp, 'base64');
  }

  /** The photo at `photoPath(uid, version)` as PNG (see `image`), for the page's share card. */
  async png(uid: string, version: string): Promise<Buffer | null> {
    const webp = await this.image(uid, version);
    return webp ? photoAsPng(webp) : null;
  }
}
