import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Passkeys1795790021937 implements MigrationInterface {
  name = 'Passkeys1795790021937';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "auth_passkey_challenges" ("id" character varying(36) NOT NULL, "challenge" character varying(128) NOT NULL, "ip_address" character varying(64) NOT NULL, "used_at" bigint, "created_at" bigint NOT NULL, CONSTRAINT "PK_004de2c982818b5c24eaf0e2613" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "auth_passkey_challenges_created_at_idx" ON "auth_passkey_challenges"  ("created_at") `);
    await queryRunner.query(`ALTER TABLE "auth_mfa_factors" ADD "web_authn_credential_id" character varying(512)`);
    await queryRunner.query(`ALTER TABLE "auth_mfa_factors" ADD "web_authn_credential" text`);
    await queryRunner.query(`ALTER TABLE "auth_mfa_challenges" ADD "web_authn_session_data" text`);
    await queryRunner.query(`CREATE UNIQUE INDEX "auth_mfa_factors_web_authn_credential_id_key" ON "auth_mfa_factors"  ("web_authn_credential_id") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."auth_mfa_factors_web_authn_credential_id_key"`);
    await queryRunner.query(`ALTER TABLE "auth_mfa_challenges" DROP COLUMN "web_authn_session_data"`);
    await queryRunner.query(`ALTER TABLE "auth_mfa_factors" DROP COLUMN "web_authn_credential"`);
    await queryRunner.query(`ALTER TABLE "auth_mfa_factors" DROP COLUMN "web_authn_credential_id"`);
    await queryRunner.query(`DROP INDEX "public"."auth_passkey_challenges_created_at_idx"`);
    await queryRunner.query(`DROP TABLE "auth_passkey_challenges"`);
  }
}
