import type { DataSource, SelectQueryBuilder } from 'typeorm';
import { Brackets } from 'typeorm';
import { ProfileRecord } from './profile.entity.js';

/** A page visitors may see, as a sitemap lists it. */
export interface PublicPageEntry {
  username: string;
  updatedAt: Date;
}

/**
 * The member pages visitors may see, for crawlers: the same rule as `ProfileService.publicView`
 * (active and public, the owner not being deleted, no operator hold or ban in force), as a query
 * (timestamps are epoch milliseconds, see db/columns.ts).
 */
export class PublicPages {
  constructor(private readonly dataSource: DataSource) {}

  private visible(now: Date): SelectQueryBuilder<ProfileRecord> {
    return this.dataSource
      .getRepository(ProfileRecord)
      .createQueryBuilder('profile')
      .innerJoin('profile.user', 'owner')
      .where('profile.isActive = :yes AND profile.isPublic = :yes', { yes: true })
      .andWhere('owner.deletingAt IS NULL')
      .andWhere('owner.hiddenReason IS NULL')
      .andWhere(
        new Brackets((ban) => {
          ban.where('owner.bannedUntil IS NULL').orWhere('owner.bannedUntil <= :now', { now: now.getTime() });
        }),
      );
  }

  /** How many pages visitors may see now. */
  async count(now = new Date()): Promise<number> {
    return this.visible(now).getCount();
  }

  /** Up to `limit` of those pages from `offset`, by username (a stable order between requests). */
  async list(offset: number, limit: number, now = new Date()): Promise<PublicPageEntry[]> {
    const records = await this.visible(now)
      .select(['profile.username', 'profile.updatedAt'])
      .orderBy('profile.username', 'ASC')
      .offset(offset)
      .limit(limit)
      .getMany();
    return records.map(({ username, updatedAt }) => ({ username, updatedAt }));
  }
}
