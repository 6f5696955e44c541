import type { MigrationInterface, QueryRunner } from 'typeorm';

export class OtpAttempts1795571212038 implements MigrationInterface {
  name = 'OtpAttempts1795571212038';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "auth_one_time_tokens_user_type_key"`);
    await queryRunner.query(`DROP INDEX "auth_one_time_tokens_token_hash_idx"`);
    await queryRunner.query(`CREATE TABLE "temporary_auth_one_time_tokens" ("id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "token_type" varchar(32) NOT NULL, "token_hash" varchar(64) NOT NULL, "relates_to" varchar(255) NOT NULL, "created_at" bigint NOT NULL, "code_hash" varchar(64), "attempts" integer NOT NULL DEFAULT (0), CONSTRAINT "FK_363dabb4744dc997763621cb4b2" FOREIGN KEY ("user_id") REFERENCES "auth_users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "temporary_auth_one_time_tokens"("id", "user_id", "token_type", "token_hash", "relates_to", "created_at") SELECT "id", "user_id", "token_type", "token_hash", "relates_to", "created_at" FROM "auth_one_time_tokens"`);
    await queryRunner.query(`DROP TABLE "auth_one_time_tokens"`);
    await queryRunner.query(`ALTER TABLE "temporary_auth_one_time_tokens" RENAME TO "auth_one_time_tokens"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "auth_one_time_tokens_user_type_key" ON "auth_one_time_tokens" ("user_id", "token_type") `);
    await queryRunner.query(`CREATE INDEX "auth_one_time_tokens_token_hash_idx" ON "auth_one_time_tokens" ("token_hash") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "auth_one_time_tokens_token_hash_idx"`);
    await queryRunner.query(`DROP INDEX "auth_one_time_tokens_user_type_key"`);
    await queryRunner.query(`ALTER TABLE "auth_one_time_tokens" RENAME TO "temporary_auth_one_time_tokens"`);
    await queryRunner.query(`CREATE TABLE "auth_one_time_tokens" ("id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "token_type" varchar(32) NOT NULL, "token_hash" varchar(64) NOT NULL, "relates_to" varchar(255) NOT NULL, "created_at" bigint NOT NULL, CONSTRAINT "FK_363dabb4744dc997763621cb4b2" FOREIGN KEY ("user_id") REFERENCES "auth_users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "auth_one_time_tokens"("id", "user_id", "token_type", "token_hash", "relates_to", "created_at") SELECT "id", "user_id", "token_type", "token_hash", "relates_to", "created_at" FROM "temporary_auth_one_time_tokens"`);
    await queryRunner.query(`DROP TABLE "temporary_auth_one_time_tokens"`);
    await queryRunner.query(`CREATE INDEX "auth_one_time_tokens_token_hash_idx" ON "auth_one_time_tokens" ("token_hash") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "auth_one_time_tokens_user_type_key" ON "auth_one_time_tokens" ("user_id", "token_type") `);
  }
}
