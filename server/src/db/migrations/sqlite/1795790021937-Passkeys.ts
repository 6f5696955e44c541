import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Passkeys1795790021937 implements MigrationInterface {
  name = 'Passkeys1795790021937';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "auth_passkey_challenges" ("id" varchar(36) PRIMARY KEY NOT NULL, "challenge" varchar(128) NOT NULL, "ip_address" varchar(64) NOT NULL, "used_at" bigint, "created_at" bigint NOT NULL)`);
    await queryRunner.query(`CREATE INDEX "auth_passkey_challenges_created_at_idx" ON "auth_passkey_challenges" ("created_at") `);
    await queryRunner.query(`DROP INDEX "auth_mfa_factors_user_id_idx"`);
    await queryRunner.query(`CREATE TABLE "temporary_auth_mfa_factors" ("id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "friendly_name" varchar(255) NOT NULL DEFAULT (''), "factor_type" varchar(16) NOT NULL, "status" varchar(16) NOT NULL, "secret" text NOT NULL, "last_used_step" integer, "last_challenged_at" bigint, "created_at" bigint NOT NULL, "updated_at" bigint NOT NULL, "web_authn_credential_id" varchar(512), "web_authn_credential" text, CONSTRAINT "FK_5b62b07fcaf6f311cef3ff4b789" FOREIGN KEY ("user_id") REFERENCES "auth_users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "temporary_auth_mfa_factors"("id", "user_id", "friendly_name", "factor_type", "status", "secret", "last_used_step", "last_challenged_at", "created_at", "updated_at") SELECT "id", "user_id", "friendly_name", "factor_type", "status", "secret", "last_used_step", "last_challenged_at", "created_at", "updated_at" FROM "auth_mfa_factors"`);
    await queryRunner.query(`DROP TABLE "auth_mfa_factors"`);
    await queryRunner.query(`ALTER TABLE "temporary_auth_mfa_factors" RENAME TO "auth_mfa_factors"`);
    await queryRunner.query(`CREATE INDEX "auth_mfa_factors_user_id_idx" ON "auth_mfa_factors" ("user_id") `);
    await queryRunner.query(`DROP INDEX "auth_mfa_challenges_factor_id_idx"`);
    await queryRunner.query(`CREATE TABLE "temporary_auth_mfa_challenges" ("id" varchar(36) PRIMARY KEY NOT NULL, "factor_id" varchar(36) NOT NULL, "ip_address" varchar(64) NOT NULL, "verified_at" bigint, "created_at" bigint NOT NULL, "web_authn_session_data" text, CONSTRAINT "FK_bfd05e6d6825b92416cae978625" FOREIGN KEY ("factor_id") REFERENCES "auth_mfa_factors" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "temporary_auth_mfa_challenges"("id", "factor_id", "ip_address", "verified_at", "created_at") SELECT "id", "factor_id", "ip_address", "verified_at", "created_at" FROM "auth_mfa_challenges"`);
    await queryRunner.query(`DROP TABLE "auth_mfa_challenges"`);
    await queryRunner.query(`ALTER TABLE "temporary_auth_mfa_challenges" RENAME TO "auth_mfa_challenges"`);
    await queryRunner.query(`CREATE INDEX "auth_mfa_challenges_factor_id_idx" ON "auth_mfa_challenges" ("factor_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "auth_mfa_factors_web_authn_credential_id_key" ON "auth_mfa_factors" ("web_authn_credential_id") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "auth_mfa_factors_web_authn_credential_id_key"`);
    await queryRunner.query(`DROP INDEX "auth_mfa_challenges_factor_id_idx"`);
    await queryRunner.query(`ALTER TABLE "auth_mfa_challenges" RENAME TO "temporary_auth_mfa_challenges"`);
    await queryRunner.query(`CREATE TABLE "auth_mfa_challenges" ("id" varchar(36) PRIMARY KEY NOT NULL, "factor_id" varchar(36) NOT NULL, "ip_address" varchar(64) NOT NULL, "verified_at" bigint, "created_at" bigint NOT NULL, CONSTRAINT "FK_bfd05e6d6825b92416cae978625" FOREIGN KEY ("factor_id") REFERENCES "auth_mfa_factors" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "auth_mfa_challenges"("id", "factor_id", "ip_address", "verified_at", "created_at") SELECT "id", "factor_id", "ip_address", "verified_at", "created_at" FROM "temporary_auth_mfa_challenges"`);
    await queryRunner.query(`DROP TABLE "temporary_auth_mfa_challenges"`);
    await queryRunner.query(`CREATE INDEX "auth_mfa_challenges_factor_id_idx" ON "auth_mfa_challenges" ("factor_id") `);
    await queryRunner.query(`DROP INDEX "auth_mfa_factors_user_id_idx"`);
    await queryRunner.query(`ALTER TABLE "auth_mfa_factors" RENAME TO "temporary_auth_mfa_factors"`);
    await queryRunner.query(`CREATE TABLE "auth_mfa_factors" ("id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "friendly_name" varchar(255) NOT NULL DEFAULT (''), "factor_type" varchar(16) NOT NULL, "status" varchar(16) NOT NULL, "secret" text NOT NULL, "last_used_step" integer, "last_challenged_at" bigint, "created_at" bigint NOT NULL, "updated_at" bigint NOT NULL, CONSTRAINT "FK_5b62b07fcaf6f311cef3ff4b789" FOREIGN KEY ("user_id") REFERENCES "auth_users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "auth_mfa_factors"("id", "user_id", "friendly_name", "factor_type", "status", "secret", "last_used_step", "last_challenged_at", "created_at", "updated_at") SELECT "id", "user_id", "friendly_name", "factor_type", "status", "secret", "last_used_step", "last_challenged_at", "created_at", "updated_at" FROM "temporary_auth_mfa_factors"`);
    await queryRunner.query(`DROP TABLE "temporary_auth_mfa_factors"`);
    await queryRunner.query(`CREATE INDEX "auth_mfa_factors_user_id_idx" ON "auth_mfa_factors" ("user_id") `);
    await queryRunner.query(`DROP INDEX "auth_passkey_challenges_created_at_idx"`);
    await queryRunner.query(`DROP TABLE "auth_passkey_challenges"`);
  }
}
