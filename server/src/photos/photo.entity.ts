import type { Relation } from 'typeorm';
import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { timestampColumn } from '../db/columns.js';
import { ProfileRecord } from '../profiles/profile.entity.js';

/**
 * A member's profile photo, kept apart from the profile so that profile reads never carry it.
 * The image is a 256 px square WebP, stored as base64 text: one column type that means the same on
 * SQLite and PostgreSQL (a few tens of kilobytes each).
 */
@Entity({ name: 'profile_photos' })
export class PhotoRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  uid!: string;

  @OneToOne(() => ProfileRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'uid', referencedColumnName: 'uid' })
  profile?: Relation<ProfileRecord>;

  /** A hash of the image: part of its address, so a new photo gets a new URL. */
  @Column({ type: 'varchar', length: 32 })
  version!: string;

  /** The WebP bytes, base64. */
  @Column({ type: 'text' })
  webp!: string;

  @Column({ ...timestampColumn, name: 'updated_at' })
  updatedAt!: Date;
}

export const photoEntities = [PhotoRecord];
