import type { MigrationInterface, QueryRunner } from 'typeorm';
import { insertKjvVerses } from '../../verse-texts/seed-verses.js';

export class SeedVerses1795240666414 implements MigrationInterface {
  name = 'SeedVerses1795240666414';

  async up(queryRunner: QueryRunner): Promise<void> {
    await insertKjvVerses(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "verses"`);
  }
}
