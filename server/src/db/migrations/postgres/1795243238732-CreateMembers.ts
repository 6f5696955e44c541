import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateMembers1795243238732 implements MigrationInterface {
  name = 'CreateMembers1795243238732';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "users" ("uid" character varying(36) NOT NULL, "email" character varying(255) NOT NULL, "first" character varying(50) NOT NULL, "birthday" character varying(10), "joined" bigint NOT NULL, "platform" character varying(32) NOT NULL, "platform_id" character varying(128), "stripe_role" character varying(32), "deleting_at" bigint, CONSTRAINT "PK_6e20ce1edf0678a09f1963f9587" PRIMARY KEY ("uid"))`);
    await queryRunner.query(`CREATE TABLE "profiles" ("uid" character varying(36) NOT NULL, "name" character varying(50) NOT NULL, "username" character varying(30) NOT NULL, "button" character varying(32) NOT NULL, "layout" character varying(16) NOT NULL, "theme" character varying(32) NOT NULL, "joined" bigint NOT NULL, "is_active" boolean NOT NULL, "is_public" boolean NOT NULL, "welcome" boolean NOT NULL, "verse_id" character varying(24) NOT NULL, "verse_ref" character varying(40) NOT NULL, "verse_text" text NOT NULL, "verse_day" character varying(10) NOT NULL, "verse_pinned" boolean NOT NULL, "updated_at" bigint NOT NULL, CONSTRAINT "PK_b097dff5d678b502da19845d32f" PRIMARY KEY ("uid"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_profiles_username" ON "profiles"  ("username") `);
    await queryRunner.query(`ALTER TABLE "profiles" ADD CONSTRAINT "FK_b097dff5d678b502da19845d32f" FOREIGN KEY ("uid") REFERENCES "users"("uid") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "profiles" DROP CONSTRAINT "FK_b097dff5d678b502da19845d32f"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_profiles_username"`);
    await queryRunner.query(`DROP TABLE "profiles"`);
    await queryRunner.query(`DROP TABLE "users"`);
  }
}
