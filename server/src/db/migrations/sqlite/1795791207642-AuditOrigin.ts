import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AuditOrigin1795791207642 implements MigrationInterface {
  name = 'AuditOrigin1795791207642';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_audit_log_target_at"`);
    await queryRunner.query(`CREATE TABLE "temporary_audit_log" ("id" varchar(36) PRIMARY KEY NOT NULL, "operator" varchar(100) NOT NULL, "action" varchar(32) NOT NULL, "target" varchar(255) NOT NULL, "details" text NOT NULL, "at" bigint NOT NULL, "os_user" varchar(100), "host" varchar(255), "outcome" varchar(16) NOT NULL DEFAULT ('done'))`);
    await queryRunner.query(`INSERT INTO "temporary_audit_log"("id", "operator", "action", "target", "details", "at") SELECT "id", "operator", "action", "target", "details", "at" FROM "audit_log"`);
    await queryRunner.query(`DROP TABLE "audit_log"`);
    await queryRunner.query(`ALTER TABLE "temporary_audit_log" RENAME TO "audit_log"`);
    await queryRunner.query(`CREATE INDEX "IDX_audit_log_target_at" ON "audit_log" ("target", "at") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_audit_log_target_at"`);
    await queryRunner.query(`ALTER TABLE "audit_log" RENAME TO "temporary_audit_log"`);
    await queryRunner.query(`CREATE TABLE "audit_log" ("id" varchar(36) PRIMARY KEY NOT NULL, "operator" varchar(100) NOT NULL, "action" varchar(32) NOT NULL, "target" varchar(255) NOT NULL, "details" text NOT NULL, "at" bigint NOT NULL)`);
    await queryRunner.query(`INSERT INTO "audit_log"("id", "operator", "action", "target", "details", "at") SELECT "id", "operator", "action", "target", "details", "at" FROM "temporary_audit_log"`);
    await queryRunner.query(`DROP TABLE "temporary_audit_log"`);
    await queryRunner.query(`CREATE INDEX "IDX_audit_log_target_at" ON "audit_log" ("target", "at") `);
  }
}
