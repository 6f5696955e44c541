import type { MigrationInterface, QueryRunner } from 'typeorm';

export class LinkScheduleAndHighlight1795576920267 implements MigrationInterface {
  name = 'LinkScheduleAndHighlight1795576920267';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "UQ_profiles_username"`);
    await queryRunner.query(`CREATE TABLE "temporary_profiles" ("uid" varchar(36) PRIMARY KEY NOT NULL, "name" varchar(50) NOT NULL, "username" varchar(30) NOT NULL, "button" varchar(32) NOT NULL, "layout" varchar(16) NOT NULL, "theme" varchar(32) NOT NULL, "joined" bigint NOT NULL, "is_active" boolean NOT NULL, "is_public" boolean NOT NULL, "welcome" boolean NOT NULL, "verse_id" varchar(24) NOT NULL, "verse_ref" varchar(40) NOT NULL, "verse_text" text NOT NULL, "verse_day" varchar(10) NOT NULL, "verse_pinned" boolean NOT NULL, "updated_at" bigint NOT NULL, "bio" varchar(160) NOT NULL DEFAULT (''), "translation" varchar(8) NOT NULL DEFAULT ('KJV'), "time_zone" varchar(64), CONSTRAINT "FK_b097dff5d678b502da19845d32f" FOREIGN KEY ("uid") REFERENCES "users" ("uid") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "temporary_profiles"("uid", "name", "username", "button", "layout", "theme", "joined", "is_active", "is_public", "welcome", "verse_id", "verse_ref", "verse_text", "verse_day", "verse_pinned", "updated_at", "bio", "translation") SELECT "uid", "name", "username", "button", "layout", "theme", "joined", "is_active", "is_public", "welcome", "verse_id", "verse_ref", "verse_text", "verse_day", "verse_pinned", "updated_at", "bio", "translation" FROM "profiles"`);
    await queryRunner.query(`DROP TABLE "profiles"`);
    await queryRunner.query(`ALTER TABLE "temporary_profiles" RENAME TO "profiles"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_profiles_username" ON "profiles" ("username") `);
    await queryRunner.query(`DROP INDEX "IDX_links_uid_position"`);
    await queryRunner.query(`CREATE TABLE "temporary_links" ("id" varchar(36) PRIMARY KEY NOT NULL, "uid" varchar(36) NOT NULL, "title" varchar(80) NOT NULL, "url" varchar(2048) NOT NULL, "position" integer NOT NULL, "hidden" boolean NOT NULL, "created_at" bigint NOT NULL, "visible_from" varchar(16), "visible_until" varchar(16), "highlighted" boolean NOT NULL DEFAULT (0), CONSTRAINT "FK_774eaf4f138e67253a2f55ea17e" FOREIGN KEY ("uid") REFERENCES "profiles" ("uid") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "temporary_links"("id", "uid", "title", "url", "position", "hidden", "created_at") SELECT "id", "uid", "title", "url", "position", "hidden", "created_at" FROM "links"`);
    await queryRunner.query(`DROP TABLE "links"`);
    await queryRunner.query(`ALTER TABLE "temporary_links" RENAME TO "links"`);
    await queryRunner.query(`CREATE INDEX "IDX_links_uid_position" ON "links" ("uid", "position") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_links_uid_position"`);
    await queryRunner.query(`ALTER TABLE "links" RENAME TO "temporary_links"`);
    await queryRunner.query(`CREATE TABLE "links" ("id" varchar(36) PRIMARY KEY NOT NULL, "uid" varchar(36) NOT NULL, "title" varchar(80) NOT NULL, "url" varchar(2048) NOT NULL, "position" integer NOT NULL, "hidden" boolean NOT NULL, "created_at" bigint NOT NULL, CONSTRAINT "FK_774eaf4f138e67253a2f55ea17e" FOREIGN KEY ("uid") REFERENCES "profiles" ("uid") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "links"("id", "uid", "title", "url", "position", "hidden", "created_at") SELECT "id", "uid", "title", "url", "position", "hidden", "created_at" FROM "temporary_links"`);
    await queryRunner.query(`DROP TABLE "temporary_links"`);
    await queryRunner.query(`CREATE INDEX "IDX_links_uid_position" ON "links" ("uid", "position") `);
    await queryRunner.query(`DROP INDEX "UQ_profiles_username"`);
    await queryRunner.query(`ALTER TABLE "profiles" RENAME TO "temporary_profiles"`);
    await queryRunner.query(`CREATE TABLE "profiles" ("uid" varchar(36) PRIMARY KEY NOT NULL, "name" varchar(50) NOT NULL, "username" varchar(30) NOT NULL, "button" varchar(32) NOT NULL, "layout" varchar(16) NOT NULL, "theme" varchar(32) NOT NULL, "joined" bigint NOT NULL, "is_active" boolean NOT NULL, "is_public" boolean NOT NULL, "welcome" boolean NOT NULL, "verse_id" varchar(24) NOT NULL, "verse_ref" varchar(40) NOT NULL, "verse_text" text NOT NULL, "verse_day" varchar(10) NOT NULL, "verse_pinned" boolean NOT NULL, "updated_at" bigint NOT NULL, "bio" varchar(160) NOT NULL DEFAULT (''), "translation" varchar(8) NOT NULL DEFAULT ('KJV'), CONSTRAINT "FK_b097dff5d678b502da19845d32f" FOREIGN KEY ("uid") REFERENCES "users" ("uid") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "profiles"("uid", "name", "username", "button", "layout", "theme", "joined", "is_active", "is_public", "welcome", "verse_id", "verse_ref", "verse_text", "verse_day", "verse_pinned", "updated_at", "bio", "translation") SELECT "uid", "name", "username", "button", "layout", "theme", "joined", "is_active", "is_public", "welcome", "verse_id", "verse_ref", "verse_text", "verse_day", "verse_pinned", "updated_at", "bio", "translation" FROM "temporary_profiles"`);
    await queryRunner.query(`DROP TABLE "temporary_profiles"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_profiles_username" ON "profiles" ("username") `);
  }
}
