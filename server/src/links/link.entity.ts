import type { Relation } from 'typeorm';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { timestampColumn } from '../db/columns.js';
import { ProfileRecord } from '../profiles/profile.entity.js';

/** One of a member's links: a button on their page. */
@Entity({ name: 'links' })
@Index('IDX_links_uid_position', ['uid', 'position'])
export class LinkRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  /** The owner's profile. */
  @Column({ type: 'varchar', length: 36 })
  uid!: string;

  @ManyToOne(() => ProfileRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'uid', referencedColumnName: 'uid' })
  profile?: Relation<ProfileRecord>;

  @Column({ type: 'varchar', length: 80 })
  title!: string;

  /** Normalised (see `normalizeLinkUrl`). */
  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  /** The link's place on the page: lower comes first. */
  @Column({ type: 'integer' })
  position!: number;

  /** Kept, and shown only to its owner. */
  @Column({ type: 'boolean' })
  hidden!: boolean;

  /** Plus: shown from this wall-clock time in the page's time zone, `YYYY-MM-DDTHH:mm` (see link-schedule.ts). */
  @Column({ name: 'visible_from', type: 'varchar', length: 16, nullable: true })
  visibleFrom!: string | null;

  /** Plus: shown until this wall-clock time in the page's time zone (exclusive). */
  @Column({ name: 'visible_until', type: 'varchar', length: 16, nullable: true })
  visibleUntil!: string | null;

  /** Plus: drawn prominently on the page; at most one link of a page. */
  @Column({ type: 'boolean', default: false })
  highlighted!: boolean;

  @Column({ ...timestampColumn, name: 'created_at' })
  createdAt!: Date;
}

/** Views of one page on one day (UTC): a count, nothing about who viewed. */
@Entity({ name: 'page_view_days' })
export class PageViewDayRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  uid!: string;

  @ManyToOne(() => ProfileRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'uid', referencedColumnName: 'uid' })
  profile?: Relation<ProfileRecord>;

  /** `YYYY-MM-DD`. */
  @PrimaryColumn({ type: 'varchar', length: 10 })
  day!: string;

  @Column({ type: 'integer' })
  views!: number;
}

/** Clicks on one link on one day (UTC). Kept with the page when the link is removed, so totals hold. */
@Entity({ name: 'link_click_days' })
@Index('IDX_link_click_days_uid_day', ['uid', 'day'])
export class LinkClickDayRecord {
  @PrimaryColumn({ name: 'link_id', type: 'varchar', length: 36 })
  linkId!: string;

  /** `YYYY-MM-DD`. */
  @PrimaryColumn({ type: 'varchar', length: 10 })
  day!: string;

  /** The page the link was on. */
  @Column({ type: 'varchar', length: 36 })
  uid!: string;

  @ManyToOne(() => ProfileRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'uid', referencedColumnName: 'uid' })
  profile?: Relation<ProfileRecord>;

  @Column({ type: 'integer' })
  clicks!: number;
}

export const linkEntities = [LinkRecord, PageViewDayRecord, LinkClickDayRecord];
