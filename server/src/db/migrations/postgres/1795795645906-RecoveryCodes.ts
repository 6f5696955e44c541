import type { MigrationInterface, QueryRunner } from 'typeorm';

export class RecoveryCodes1795795645906 implements MigrationInterface {
  name = 'RecoveryCodes1795795645906';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "auth_recovery_codes" ("id" character varying(36) NOT NULL, "user_id" character varying(36) NOT NULL, "code_hash" character varying(64) NOT NULL, "used_at" bigint, "created_at" bigint NOT NULL, CONSTRAINT "PK_fefeaa6d8e2483fa5af309302ba" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "auth_recovery_codes_user_id_idx" ON "auth_recovery_codes"  ("user_id") `);
    await queryRunner.query(`ALTER TABLE "auth_recovery_codes" ADD CONSTRAINT "FK_4c758587802b0a946e93abd7422" FOREIGN KEY ("user_id") REFERENCES "auth_users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "auth_recovery_codes" DROP CONSTRAINT "FK_4c758587802b0a946e93abd7422"`);
    await queryRunner.query(`DROP INDEX "public"."auth_recovery_codes_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "auth_recovery_codes"`);
  }
}
