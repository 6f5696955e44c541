import type { MigrationInterface, QueryRunner } from 'typeorm';

export class FlowStates1795576981811 implements MigrationInterface {
  name = 'FlowStates1795576981811';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "auth_flow_states" ("id" character varying(36) NOT NULL, "user_id" character varying(36) NOT NULL, "auth_code_hash" character varying(64) NOT NULL, "code_challenge" character varying(128) NOT NULL, "code_challenge_method" character varying(8) NOT NULL, "authentication_method" character varying(32) NOT NULL, "auth_code_issued_at" bigint, "created_at" bigint NOT NULL, CONSTRAINT "PK_7b4395674430171b269e5431173" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "auth_flow_states_auth_code_key" ON "auth_flow_states"  ("auth_code_hash") `);
    await queryRunner.query(`CREATE INDEX "auth_flow_states_created_at_idx" ON "auth_flow_states"  ("created_at") `);
    await queryRunner.query(`CREATE INDEX "auth_flow_states_user_method_idx" ON "auth_flow_states"  ("user_id", "authentication_method") `);
    await queryRunner.query(`ALTER TABLE "auth_flow_states" ADD CONSTRAINT "FK_843c74caaa01ddef8b39c0d92c0" FOREIGN KEY ("user_id") REFERENCES "auth_users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "auth_flow_states" DROP CONSTRAINT "FK_843c74caaa01ddef8b39c0d92c0"`);
    await queryRunner.query(`DROP INDEX "public"."auth_flow_states_user_method_idx"`);
    await queryRunner.query(`DROP INDEX "public"."auth_flow_states_created_at_idx"`);
    await queryRunner.query(`DROP INDEX "public"."auth_flow_states_auth_code_key"`);
    await queryRunner.query(`DROP TABLE "auth_flow_states"`);
  }
}
