import { VerseRecord } from '../verses/verse.entity.js';

/** Every TypeORM entity; migrations in migrations/<dialect>/ must produce exactly these tables. */
export const entities = [VerseRecord];
