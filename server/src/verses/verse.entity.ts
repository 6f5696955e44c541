import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Translation } from './translation.js';

/** One verse of a stored Bible translation, keyed by its OSIS id (`Heb.3.4`) and translation. */
@Entity({ name: 'verses' })
export class VerseRecord {
  @PrimaryColumn({ type: 'varchar', length: 24 })
  id!: string;

  @Column({ type: 'varchar', length: 8 })
  book!: string;

  @Column({ type: 'integer' })
  chapter!: number;

  @Column({ type: 'integer' })
  verse!: number;

  @Column({ type: 'varchar', length: 40 })
  ref!: string;

  @Column({ type: 'text' })
  text!: string;

  @PrimaryColumn({ type: 'varchar', length: 8 })
  translation!: Translation;
}
