import type { MigrationInterface, QueryRunner } from 'typeorm';
import { insertWebVerses } from '../../verse-texts/seed-verses.js';

export class SeedWebVerses1795576795472 implements MigrationInterface {
  name = 'SeedWebVerses1795576795472';

  async up(queryRunner: QueryRunner): Promise<void> {
    await insertWebVerses(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "verses" WHERE "translation" = 'WEB'`);
  }
}
