import type { MigrationInterface, QueryRunner } from 'typeorm';

export class FlowStates1795576981811 implements MigrationInterface {
  name = 'FlowStates1795576981811';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "auth_flow_states" ("id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "auth_code_hash" varchar(64) NOT NULL, "code_challenge" varchar(128) NOT NULL, "code_challenge_method" varchar(8) NOT NULL, "authentication_method" varchar(32) NOT NULL, "auth_code_issued_at" bigint, "created_at" bigint NOT NULL)`);
    await queryRunner.query(`CREATE UNIQUE INDEX "auth_flow_states_auth_code_key" ON "auth_flow_states" ("auth_code_hash") `);
    await queryRunner.query(`CREATE INDEX "auth_flow_states_created_at_idx" ON "auth_flow_states" ("created_at") `);
    await queryRunner.query(`CREATE INDEX "auth_flow_states_user_method_idx" ON "auth_flow_states" ("user_id", "authentication_method") `);
    await queryRunner.query(`DROP INDEX "auth_flow_states_auth_code_key"`);
    await queryRunner.query(`DROP INDEX "auth_flow_states_created_at_idx"`);
    await queryRunner.query(`DROP INDEX "auth_flow_states_user_method_idx"`);
    await queryRunner.query(`CREATE TABLE "temporary_auth_flow_states" ("id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "auth_code_hash" varchar(64) NOT NULL, "code_challenge" varchar(128) NOT NULL, "code_challenge_method" varchar(8) NOT NULL, "authentication_method" varchar(32) NOT NULL, "auth_code_issued_at" bigint, "created_at" bigint NOT NULL, CONSTRAINT "FK_843c74caaa01ddef8b39c0d92c0" FOREIGN KEY ("user_id") REFERENCES "auth_users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "temporary_auth_flow_states"("id", "user_id", "auth_code_hash", "code_challenge", "code_challenge_method", "authentication_method", "auth_code_issued_at", "created_at") SELECT "id", "user_id", "auth_code_hash", "code_challenge", "code_challenge_method", "authentication_method", "auth_code_issued_at", "created_at" FROM "auth_flow_states"`);
    await queryRunner.query(`DROP TABLE "auth_flow_states"`);
    await queryRunner.query(`ALTER TABLE "temporary_auth_flow_states" RENAME TO "auth_flow_states"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "auth_flow_states_auth_code_key" ON "auth_flow_states" ("auth_code_hash") `);
    await queryRunner.query(`CREATE INDEX "auth_flow_states_created_at_idx" ON "auth_flow_states" ("created_at") `);
    await queryRunner.query(`CREATE INDEX "auth_flow_states_user_method_idx" ON "auth_flow_states" ("user_id", "authentication_method") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "auth_flow_states_user_method_idx"`);
    await queryRunner.query(`DROP INDEX "auth_flow_states_created_at_idx"`);
    await queryRunner.query(`DROP INDEX "auth_flow_states_auth_code_key"`);
    await queryRunner.query(`ALTER TABLE "auth_flow_states" RENAME TO "temporary_auth_flow_states"`);
    await queryRunner.query(`CREATE TABLE "auth_flow_states" ("id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "auth_code_hash" varchar(64) NOT NULL, "code_challenge" varchar(128) NOT NULL, "code_challenge_method" varchar(8) NOT NULL, "authentication_method" varchar(32) NOT NULL, "auth_code_issued_at" bigint, "created_at" bigint NOT NULL)`);
    await queryRunner.query(`INSERT INTO "auth_flow_states"("id", "user_id", "auth_code_hash", "code_challenge", "code_challenge_method", "authentication_method", "auth_code_issued_at", "created_at") SELECT "id", "user_id", "auth_code_hash", "code_challenge", "code_challenge_method", "authentication_method", "auth_code_issued_at", "created_at" FROM "temporary_auth_flow_states"`);
    await queryRunner.query(`DROP TABLE "temporary_auth_flow_states"`);
    await queryRunner.query(`CREATE INDEX "auth_flow_states_user_method_idx" ON "auth_flow_states" ("user_id", "authentication_method") `);
    await queryRunner.query(`CREATE INDEX "auth_flow_states_created_at_idx" ON "auth_flow_states" ("created_at") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "auth_flow_states_auth_code_key" ON "auth_flow_states" ("auth_code_hash") `);
    await queryRunner.query(`DROP INDEX "auth_flow_states_user_method_idx"`);
    await queryRunner.query(`DROP INDEX "auth_flow_states_created_at_idx"`);
    await queryRunner.query(`DROP INDEX "auth_flow_states_auth_code_key"`);
    await queryRunner.query(`DROP TABLE "auth_flow_states"`);
  }
}
