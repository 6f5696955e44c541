import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ModerationAndAudit1795576927108 implements MigrationInterface {
  name = 'ModerationAndAudit1795576927108';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "reports" ("id" character varying(36) NOT NULL, "uid" character varying(36) NOT NULL, "username" character varying(30) NOT NULL, "reason" character varying(32) NOT NULL, "note" character varying(500) NOT NULL DEFAULT '', "created_at" bigint NOT NULL, "resolved_at" bigint, "resolved_by" character varying(100), "resolution" character varying(500), CONSTRAINT "PK_d9013193989303580053c0b5ef6" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_reports_uid" ON "reports"  ("uid") `);
    await queryRunner.query(`CREATE INDEX "IDX_reports_resolved_created" ON "reports"  ("resolved_at", "created_at") `);
    await queryRunner.query(`CREATE TABLE "audit_log" ("id" character varying(36) NOT NULL, "operator" character varying(100) NOT NULL, "action" character varying(32) NOT NULL, "target" character varying(255) NOT NULL, "details" text NOT NULL, "at" bigint NOT NULL, CONSTRAINT "PK_07fefa57f7f5ab8fc3f52b3ed0b" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_audit_log_target_at" ON "audit_log"  ("target", "at") `);
    await queryRunner.query(`ALTER TABLE "users" ADD "hidden_reason" character varying(500)`);
    await queryRunner.query(`ALTER TABLE "users" ADD "hidden_at" bigint`);
    await queryRunner.query(`ALTER TABLE "users" ADD "banned_until" bigint`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "banned_until"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "hidden_at"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "hidden_reason"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_audit_log_target_at"`);
    await queryRunner.query(`DROP TABLE "audit_log"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_reports_resolved_created"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_reports_uid"`);
    await queryRunner.query(`DROP TABLE "reports"`);
  }
}
