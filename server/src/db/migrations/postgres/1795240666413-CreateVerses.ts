import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateVerses1795240666413 implements MigrationInterface {
  name = 'CreateVerses1795240666413';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "verses" ("id" character varying(24) NOT NULL, "book" character varying(8) NOT NULL, "chapter" integer NOT NULL, "verse" integer NOT NULL, "ref" character varying(40) NOT NULL, "text" text NOT NULL, "translation" character varying(8) NOT NULL, CONSTRAINT "PK_40259e26328da1d6e0f0e0a19a5" PRIMARY KEY ("id"))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "verses"`);
  }
}
