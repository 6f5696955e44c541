import type { MigrationInterface, QueryRunner } from 'typeorm';

export class LinkScheduleAndHighlight1795576920267 implements MigrationInterface {
  name = 'LinkScheduleAndHighlight1795576920267';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "profiles" ADD "time_zone" character varying(64)`);
    await queryRunner.query(`ALTER TABLE "links" ADD "visible_from" character varying(16)`);
    await queryRunner.query(`ALTER TABLE "links" ADD "visible_until" character varying(16)`);
    await queryRunner.query(`ALTER TABLE "links" ADD "highlighted" boolean NOT NULL DEFAULT false`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "links" DROP COLUMN "highlighted"`);
    await queryRunner.query(`ALTER TABLE "links" DROP COLUMN "visible_until"`);
    await queryRunner.query(`ALTER TABLE "links" DROP COLUMN "visible_from"`);
    await queryRunner.query(`ALTER TABLE "profiles" DROP COLUMN "time_zone"`);
  }
}
