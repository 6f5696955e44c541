import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateVerses1795240666413 implements MigrationInterface {
  name = 'CreateVerses1795240666413';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "verses" ("id" varchar(24) PRIMARY KEY NOT NULL, "book" varchar(8) NOT NULL, "chapter" integer NOT NULL, "verse" integer NOT NULL, "ref" varchar(40) NOT NULL, "text" text NOT NULL, "translation" varchar(8) NOT NULL)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "verses"`);
  }
}
