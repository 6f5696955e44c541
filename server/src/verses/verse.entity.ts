import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One verse of the stored Bible text, keyed by its OSIS id (`Heb.3.4`). */
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

  @Column({ type: 'varchar', length: 8 })
  translation!: string;
}
