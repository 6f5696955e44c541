import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateMembers1795243238732 implements MigrationInterface {
  name = 'CreateMembers1795243238732';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "users" ("uid" varchar(36) PRIMARY KEY NOT NULL, "email" varchar(255) NOT NULL, "first" varchar(50) NOT NULL, "birthday" varchar(10), "joined" bigint NOT NULL, "platform" varchar(32) NOT NULL, "platform_id" varchar(128), "stripe_role" varchar(32), "deleting_at" bigint)`);
    await queryRunner.query(`CREATE TABLE "profiles" ("uid" varchar(36) PRIMARY KEY NOT NULL, "name" varchar(50) NOT NULL, "username" varchar(30) NOT NULL, "button" varchar(32) NOT NULL, "layout" varchar(16) NOT NULL, "theme" varchar(32) NOT NULL, "joined" bigint NOT NULL, "is_active" boolean NOT NULL, "is_public" boolean NOT NULL, "welcome" boolean NOT NULL, "verse_id" varchar(24) NOT NULL, "verse_ref" varchar(40) NOT NULL, "verse_text" text NOT NULL, "verse_day" varchar(10) NOT NULL, "verse_pinned" boolean NOT NULL, "updated_at" bigint NOT NULL, CONSTRAINT "FK_b097dff5d678b502da19845d32f" FOREIGN KEY ("uid") REFERENCES "users" ("uid") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_profiles_username" ON "profiles" ("username") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "UQ_profiles_username"`);
    await queryRunner.query(`DROP TABLE "profiles"`);
    await queryRunner.query(`DROP TABLE "users"`);
  }
}
