import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateIdentity1795242437394 implements MigrationInterface {
  name = 'CreateIdentity1795242437394';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "auth_users" ("id" character varying(36) NOT NULL, "aud" character varying(255) NOT NULL, "role" character varying(255) NOT NULL, "email" character varying(255), "encrypted_password" character varying(255), "email_confirmed_at" bigint, "invited_at" bigint, "confirmation_sent_at" bigint, "recovery_sent_at" bigint, "email_change" character varying(255), "email_change_sent_at" bigint, "email_change_confirm_status" integer NOT NULL DEFAULT '0', "last_sign_in_at" bigint, "app_metadata" text NOT NULL, "user_metadata" text NOT NULL, "banned_until" bigint, "deleted_at" bigint, "is_anonymous" boolean NOT NULL DEFAULT false, "created_at" bigint NOT NULL, "updated_at" bigint NOT NULL, CONSTRAINT "PK_c88cc8077366b470dafc2917366" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "auth_users_email_key" ON "auth_users"  ("email") `);
    await queryRunner.query(`CREATE INDEX "auth_users_created_at_idx" ON "auth_users"  ("created_at") `);
    await queryRunner.query(`CREATE TABLE "auth_identities" ("id" character varying(36) NOT NULL, "provider_id" character varying(255) NOT NULL, "user_id" character varying(36) NOT NULL, "provider" character varying(32) NOT NULL, "identity_data" text NOT NULL, "email" character varying(255), "last_sign_in_at" bigint, "created_at" bigint NOT NULL, "updated_at" bigint NOT NULL, CONSTRAINT "PK_63a29aebcddd09448dbeee4666b" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "auth_identities_user_id_idx" ON "auth_identities"  ("user_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "auth_identities_provider_key" ON "auth_identities"  ("provider_id", "provider") `);
    await queryRunner.query(`CREATE TABLE "auth_sessions" ("id" character varying(36) NOT NULL, "user_id" character varying(36) NOT NULL, "aal" character varying(8) NOT NULL, "amr" text NOT NULL, "user_agent" character varying(512), "ip" character varying(64), "refreshed_at" bigint, "created_at" bigint NOT NULL, "updated_at" bigint NOT NULL, CONSTRAINT "PK_641507381f32580e8479efc36cd" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "auth_sessions_user_id_idx" ON "auth_sessions"  ("user_id") `);
    await queryRunner.query(`CREATE TABLE "auth_refresh_tokens" ("id" character varying(36) NOT NULL, "token_hash" character varying(64) NOT NULL, "parent_hash" character varying(64), "session_id" character varying(36) NOT NULL, "user_id" character varying(36) NOT NULL, "revoked" boolean NOT NULL DEFAULT false, "created_at" bigint NOT NULL, "updated_at" bigint NOT NULL, CONSTRAINT "PK_df6893d2063a4ea7bbf1eda31e5" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "auth_refresh_tokens_token_hash_key" ON "auth_refresh_tokens"  ("token_hash") `);
    await queryRunner.query(`CREATE INDEX "auth_refresh_tokens_session_id_idx" ON "auth_refresh_tokens"  ("session_id") `);
    await queryRunner.query(`CREATE TABLE "auth_one_time_tokens" ("id" character varying(36) NOT NULL, "user_id" character varying(36) NOT NULL, "token_type" character varying(32) NOT NULL, "token_hash" character varying(64) NOT NULL, "relates_to" character varying(255) NOT NULL, "created_at" bigint NOT NULL, CONSTRAINT "PK_75f13731b8ec561f0adc91d73c7" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "auth_one_time_tokens_token_hash_idx" ON "auth_one_time_tokens"  ("token_hash") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "auth_one_time_tokens_user_type_key" ON "auth_one_time_tokens"  ("user_id", "token_type") `);
    await queryRunner.query(`CREATE TABLE "mail_outbox" ("id" character varying(36) NOT NULL, "recipient" character varying(320) NOT NULL, "subject" character varying(255) NOT NULL, "text" text NOT NULL, "html" text NOT NULL, "link" text, "created_at" bigint NOT NULL, CONSTRAINT "PK_fecc63c96385bc35a39ccf2a72e" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "mail_outbox_recipient_idx" ON "mail_outbox"  ("recipient") `);
    await queryRunner.query(`ALTER TABLE "auth_identities" ADD CONSTRAINT "FK_c06a980d83c42611d27a294e55c" FOREIGN KEY ("user_id") REFERENCES "auth_users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "auth_sessions" ADD CONSTRAINT "FK_50ccaa6440288a06f0ba693ccc6" FOREIGN KEY ("user_id") REFERENCES "auth_users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "auth_refresh_tokens" ADD CONSTRAINT "FK_61b00011da0ac93bf960edcfc5b" FOREIGN KEY ("session_id") REFERENCES "auth_sessions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "auth_one_time_tokens" ADD CONSTRAINT "FK_363dabb4744dc997763621cb4b2" FOREIGN KEY ("user_id") REFERENCES "auth_users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "auth_one_time_tokens" DROP CONSTRAINT "FK_363dabb4744dc997763621cb4b2"`);
    await queryRunner.query(`ALTER TABLE "auth_refresh_tokens" DROP CONSTRAINT "FK_61b00011da0ac93bf960edcfc5b"`);
    await queryRunner.query(`ALTER TABLE "auth_sessions" DROP CONSTRAINT "FK_50ccaa6440288a06f0ba693ccc6"`);
    await queryRunner.query(`ALTER TABLE "auth_identities" DROP CONSTRAINT "FK_c06a980d83c42611d27a294e55c"`);
    await queryRunner.query(`DROP INDEX "public"."mail_outbox_recipient_idx"`);
    await queryRunner.query(`DROP TABLE "mail_outbox"`);
    await queryRunner.query(`DROP INDEX "public"."auth_one_time_tokens_user_type_key"`);
    await queryRunner.query(`DROP INDEX "public"."auth_one_time_tokens_token_hash_idx"`);
    await queryRunner.query(`DROP TABLE "auth_one_time_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."auth_refresh_tokens_session_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."auth_refresh_tokens_token_hash_key"`);
    await queryRunner.query(`DROP TABLE "auth_refresh_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."auth_sessions_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "auth_sessions"`);
    await queryRunner.query(`DROP INDEX "public"."auth_identities_provider_key"`);
    await queryRunner.query(`DROP INDEX "public"."auth_identities_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "auth_identities"`);
    await queryRunner.query(`DROP INDEX "public"."auth_users_created_at_idx"`);
    await queryRunner.query(`DROP INDEX "public"."auth_users_email_key"`);
    await queryRunner.query(`DROP TABLE "auth_users"`);
  }
}
