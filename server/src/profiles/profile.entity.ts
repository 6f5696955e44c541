import type { Relation } from 'typeorm';
import { Column, Entity, Index, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { UserRecord } from '../members/user.entity.js';
import { timestampColumn } from '../db/columns.js';
import type { Translation } from '../verses/translation.js';
import type { ButtonStyle, Layout, Theme } from './appearance.js';

/** The original's profile record, keyed by the identity user id. */
@Entity({ name: 'profiles' })
export class ProfileRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  uid!: string;

  @OneToOne(() => UserRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'uid', referencedColumnName: 'uid' })
  user?: Relation<UserRecord>;

  @Column({ type: 'varchar', length: 50 })
  name!: string;

  /** Always lower case, so lookups are case-insensitive by lowering the input. */
  @Index('UQ_profiles_username', { unique: true })
  @Column({ type: 'varchar', length: 30 })
  username!: string;

  /** A few words under the name; empty for none. */
  @Column({ type: 'varchar', length: 160, default: '' })
  bio!: string;

  @Column({ type: 'varchar', length: 32 })
  button!: ButtonStyle;

  @Column({ type: 'varchar', length: 16 })
  layout!: Layout;

  @Column({ type: 'varchar', length: 32 })
  theme!: Theme;

  @Column(timestampColumn)
  joined!: Date;

  @Column({ name: 'is_active', type: 'boolean' })
  isActive!: boolean;

  @Column({ name: 'is_public', type: 'boolean' })
  isPublic!: boolean;

  @Column({ type: 'boolean' })
  welcome!: boolean;

  /** The stored verse: OSIS id, display reference and text, as the original kept them. */
  @Column({ name: 'verse_id', type: 'varchar', length: 24 })
  verseId!: string;

  @Column({ name: 'verse_ref', type: 'varchar', length: 40 })
  verseRef!: string;

  @Column({ name: 'verse_text', type: 'text' })
  verseText!: string;

  /** The day (ISO date) the stored verse was brought to; a read on another day follows the calendar. */
  @Column({ name: 'verse_day', type: 'varchar', length: 10 })
  verseDay!: string;

  /** A Plus member chose this verse; it stays until unpinned (or Plus ends). */
  @Column({ name: 'verse_pinned', type: 'boolean' })
  versePinned!: boolean;

  /** The IANA zone the member's scheduled links are read in; null until chosen (read as UTC). */
  @Column({ name: 'time_zone', type: 'varchar', length: 64, nullable: true })
  timeZone!: string | null;
  /** The translation the page shows its verse in (KJV, the original's, until the member chooses). */
  @Column({ type: 'varchar', length: 8, default: 'KJV' })
  translation!: Translation;

  @Column({ ...timestampColumn, name: 'updated_at' })
  updatedAt!: Date;
}
