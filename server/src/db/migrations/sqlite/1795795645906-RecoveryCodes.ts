import type { MigrationInterface, QueryRunner } from 'typeorm';

export class RecoveryCodes1795795645906 implements MigrationInterface {
  name = 'RecoveryCodes1795795645906';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "auth_recovery_codes" ("id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "code_hash" varchar(64) NOT NULL, "used_at" bigint, "created_at" bigint NOT NULL)`);
    await queryRunner.query(`CREATE INDEX "auth_recovery_codes_user_id_idx" ON "auth_recovery_codes" ("user_id") `);
    await queryRunner.query(`DROP INDEX "auth_recovery_codes_user_id_idx"`);
    await queryRunner.query(`CREATE TABLE "temporary_auth_recovery_codes" ("id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "code_hash" varchar(64) NOT NULL, "used_at" bigint, "created_at" bigint NOT NULL, CONSTRAINT "FK_4c758587802b0a946e93abd7422" FOREIGN KEY ("user_id") REFERENCES "auth_users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "temporary_auth_recovery_codes"("id", "user_id", "code_hash", "used_at", "created_at") SELECT "id", "user_id", "code_hash", "used_at", "created_at" FROM "auth_recovery_codes"`);
    await queryRunner.query(`DROP TABLE "auth_recovery_codes"`);
    await queryRunner.query(`ALTER TABLE "temporary_auth_recovery_codes" RENAME TO "auth_recovery_codes"`);
    await queryRunner.query(`CREATE INDEX "auth_recovery_codes_user_id_idx" ON "auth_recovery_codes" ("user_id") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "auth_recovery_codes_user_id_idx"`);
    await queryRunner.query(`ALTER TABLE "auth_recovery_codes" RENAME TO "temporary_auth_recovery_codes"`);
    await queryRunner.query(`CREATE TABLE "auth_recovery_codes" ("id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "code_hash" varchar(64) NOT NULL, "used_at" bigint, "created_at" bigint NOT NULL)`);
    await queryRunner.query(`INSERT INTO "auth_recovery_codes"("id", "user_id", "code_hash", "used_at", "created_at") SELECT "id", "user_id", "code_hash", "used_at", "created_at" FROM "temporary_auth_recovery_codes"`);
    await queryRunner.query(`DROP TABLE "temporary_auth_recovery_codes"`);
    await queryRunner.query(`CREATE INDEX "auth_recovery_codes_user_id_idx" ON "auth_recovery_codes" ("user_id") `);
    await queryRunner.query(`DROP INDEX "auth_recovery_codes_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "auth_recovery_codes"`);
  }
}
