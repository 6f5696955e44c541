import type { Relation } from 'typeorm';
import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { timestampColumn } from '../db/columns.js';
import { UserRecord } from '../members/user.entity.js';

/** A verse a member saved; saving the same verse again keeps the first. */
@Entity({ name: 'saved_verses' })
@Index('IDX_saved_verses_uid_saved_at', ['uid', 'savedAt'])
export class SavedVerseRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  uid!: string;

  @ManyToOne(() => UserRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'uid', referencedColumnName: 'uid' })
  user?: Relation<UserRecord>;

  /** The verse's OSIS id (`John.3.16`), the same in every translation. */
  @PrimaryColumn({ name: 'verse_id', type: 'varchar', length: 24 })
  verseId!: string;

  @Column({ ...timestampColumn, name: 'saved_at' })
  savedAt!: Date;
}
