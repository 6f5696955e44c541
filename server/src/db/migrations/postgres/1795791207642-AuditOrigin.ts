import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AuditOrigin1795791207642 implements MigrationInterface {
  name = 'AuditOrigin1795791207642';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "audit_log" ADD "os_user" character varying(100)`);
    await queryRunner.query(`ALTER TABLE "audit_log" ADD "host" character varying(255)`);
    await queryRunner.query(`ALTER TABLE "audit_log" ADD "outcome" character varying(16) NOT NULL DEFAULT 'done'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "audit_log" DROP COLUMN "outcome"`);
    await queryRunner.query(`ALTER TABLE "audit_log" DROP COLUMN "host"`);
    await queryRunner.query(`ALTER TABLE "audit_log" DROP COLUMN "os_user"`);
  }
}
