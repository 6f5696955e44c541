import type { MigrationInterface, QueryRunner } from 'typeorm';

export class MfaFactors1795576891882 implements MigrationInterface {
  name = 'MfaFactors1795576891882';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "auth_mfa_factors" ("id" character varying(36) NOT NULL, "user_id" character varying(36) NOT NULL, "friendly_name" character varying(255) NOT NULL DEFAULT '', "factor_type" character varying(16) NOT NULL, "status" character varying(16) NOT NULL, "secret" text NOT NULL, "last_used_step" integer, "last_challenged_at" bigint, "created_at" bigint NOT NULL, "updated_at" bigint NOT NULL, CONSTRAINT "PK_4613d63dfed87bc0d951ab03bfe" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "auth_mfa_factors_user_id_idx" ON "auth_mfa_factors"  ("user_id") `);
    await queryRunner.query(`CREATE TABLE "auth_mfa_challenges" ("id" character varying(36) NOT NULL, "factor_id" character varying(36) NOT NULL, "ip_address" character varying(64) NOT NULL, "verified_at" bigint, "created_at" bigint NOT NULL, CONSTRAINT "PK_6ae1d7f50bf893ae624726b9307" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "auth_mfa_challenges_factor_id_idx" ON "auth_mfa_challenges"  ("factor_id") `);
    await queryRunner.query(`ALTER TABLE "auth_sessions" ADD "factor_id" character varying(36)`);
    await queryRunner.query(`ALTER TABLE "auth_mfa_factors" ADD CONSTRAINT "FK_5b62b07fcaf6f311cef3ff4b789" FOREIGN KEY ("user_id") REFERENCES "auth_users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "auth_mfa_challenges" ADD CONSTRAINT "FK_bfd05e6d6825b92416cae978625" FOREIGN KEY ("factor_id") REFERENCES "auth_mfa_factors"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "auth_mfa_challenges" DROP CONSTRAINT "FK_bfd05e6d6825b92416cae978625"`);
    await queryRunner.query(`ALTER TABLE "auth_mfa_factors" DROP CONSTRAINT "FK_5b62b07fcaf6f311cef3ff4b789"`);
    await queryRunner.query(`ALTER TABLE "auth_sessions" DROP COLUMN "factor_id"`);
    await queryRunner.query(`DROP INDEX "public"."auth_mfa_challenges_factor_id_idx"`);
    await queryRunner.query(`DROP TABLE "auth_mfa_challenges"`);
    await queryRunner.query(`DROP INDEX "public"."auth_mfa_factors_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "auth_mfa_factors"`);
  }
}
