import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ModerationAndAudit1795576927108 implements MigrationInterface {
  name = 'ModerationAndAudit1795576927108';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "reports" ("id" varchar(36) PRIMARY KEY NOT NULL, "uid" varchar(36) NOT NULL, "username" varchar(30) NOT NULL, "reason" varchar(32) NOT NULL, "note" varchar(500) NOT NULL DEFAULT (''), "created_at" bigint NOT NULL, "resolved_at" bigint, "resolved_by" varchar(100), "resolution" varchar(500))`);
    await queryRunner.query(`CREATE INDEX "IDX_reports_uid" ON "reports" ("uid") `);
    await queryRunner.query(`CREATE INDEX "IDX_reports_resolved_created" ON "reports" ("resolved_at", "created_at") `);
    await queryRunner.query(`CREATE TABLE "audit_log" ("id" varchar(36) PRIMARY KEY NOT NULL, "operator" varchar(100) NOT NULL, "action" varchar(32) NOT NULL, "target" varchar(255) NOT NULL, "details" text NOT NULL, "at" bigint NOT NULL)`);
    await queryRunner.query(`CREATE INDEX "IDX_audit_log_target_at" ON "audit_log" ("target", "at") `);
    await queryRunner.query(`CREATE TABLE "temporary_users" ("uid" varchar(36) PRIMARY KEY NOT NULL, "email" varchar(255) NOT NULL, "first" varchar(50) NOT NULL, "birthday" varchar(10), "joined" bigint NOT NULL, "platform" varchar(32) NOT NULL, "platform_id" varchar(128), "stripe_role" varchar(32), "deleting_at" bigint, "hidden_reason" varchar(500), "hidden_at" bigint, "banned_until" bigint)`);
    await queryRunner.query(`INSERT INTO "temporary_users"("uid", "email", "first", "birthday", "joined", "platform", "platform_id", "stripe_role", "deleting_at") SELECT "uid", "email", "first", "birthday", "joined", "platform", "platform_id", "stripe_role", "deleting_at" FROM "users"`);
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`ALTER TABLE "temporary_users" RENAME TO "users"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" RENAME TO "temporary_users"`);
    await queryRunner.query(`CREATE TABLE "users" ("uid" varchar(36) PRIMARY KEY NOT NULL, "email" varchar(255) NOT NULL, "first" varchar(50) NOT NULL, "birthday" varchar(10), "joined" bigint NOT NULL, "platform" varchar(32) NOT NULL, "platform_id" varchar(128), "stripe_role" varchar(32), "deleting_at" bigint)`);
    await queryRunner.query(`INSERT INTO "users"("uid", "email", "first", "birthday", "joined", "platform", "platform_id", "stripe_role", "deleting_at") SELECT "uid", "email", "first", "birthday", "joined", "platform", "platform_id", "stripe_role", "deleting_at" FROM "temporary_users"`);
    await queryRunner.query(`DROP TABLE "temporary_users"`);
    await queryRunner.query(`DROP INDEX "IDX_audit_log_target_at"`);
    await queryRunner.query(`DROP TABLE "audit_log"`);
    await queryRunner.query(`DROP INDEX "IDX_reports_resolved_created"`);
    await queryRunner.query(`DROP INDEX "IDX_reports_uid"`);
    await queryRunner.query(`DROP TABLE "reports"`);
  }
}
