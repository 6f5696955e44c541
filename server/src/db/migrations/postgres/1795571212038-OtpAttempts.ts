import type { MigrationInterface, QueryRunner } from 'typeorm';

export class OtpAttempts1795571212038 implements MigrationInterface {
  name = 'OtpAttempts1795571212038';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "auth_one_time_tokens" ADD "code_hash" character varying(64)`);
    await queryRunner.query(`ALTER TABLE "auth_one_time_tokens" ADD "attempts" integer NOT NULL DEFAULT '0'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "auth_one_time_tokens" DROP COLUMN "attempts"`);
    await queryRunner.query(`ALTER TABLE "auth_one_time_tokens" DROP COLUMN "code_hash"`);
  }
}
