import type { MigrationInterface, QueryRunner } from 'typeorm';

export class VersesTranslationsSavedMail1795576795471 implements MigrationInterface {
  name = 'VersesTranslationsSavedMail1795576795471';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "saved_verses" ("uid" varchar(36) NOT NULL, "verse_id" varchar(24) NOT NULL, "saved_at" bigint NOT NULL, PRIMARY KEY ("uid", "verse_id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_saved_verses_uid_saved_at" ON "saved_verses" ("uid", "saved_at") `);
    await queryRunner.query(`CREATE TABLE "verse_mail_subscriptions" ("uid" varchar(36) PRIMARY KEY NOT NULL, "hour" integer NOT NULL, "time_zone" varchar(64) NOT NULL, "created_at" bigint NOT NULL)`);
    await queryRunner.query(`CREATE TABLE "verse_mail_sends" ("uid" varchar(36) NOT NULL, "day" varchar(10) NOT NULL, "status" varchar(8) NOT NULL, "attempts" integer NOT NULL, "claimed_until" bigint NOT NULL, "unsubscribe_hash" varchar(64) NOT NULL, PRIMARY KEY ("uid", "day"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_verse_mail_sends_unsubscribe" ON "verse_mail_sends" ("unsubscribe_hash") `);
    await queryRunner.query(`DROP INDEX "UQ_profiles_username"`);
    await queryRunner.query(`CREATE TABLE "temporary_profiles" ("uid" varchar(36) PRIMARY KEY NOT NULL, "name" varchar(50) NOT NULL, "username" varchar(30) NOT NULL, "button" varchar(32) NOT NULL, "layout" varchar(16) NOT NULL, "theme" varchar(32) NOT NULL, "joined" bigint NOT NULL, "is_active" boolean NOT NULL, "is_public" boolean NOT NULL, "welcome" boolean NOT NULL, "verse_id" varchar(24) NOT NULL, "verse_ref" varchar(40) NOT NULL, "verse_text" text NOT NULL, "verse_day" varchar(10) NOT NULL, "verse_pinned" boolean NOT NULL, "updated_at" bigint NOT NULL, "bio" varchar(160) NOT NULL DEFAULT (''), "translation" varchar(8) NOT NULL DEFAULT ('KJV'), CONSTRAINT "FK_b097dff5d678b502da19845d32f" FOREIGN KEY ("uid") REFERENCES "users" ("uid") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "temporary_profiles"("uid", "name", "username", "button", "layout", "theme", "joined", "is_active", "is_public", "welcome", "verse_id", "verse_ref", "verse_text", "verse_day", "verse_pinned", "updated_at", "bio") SELECT "uid", "name", "username", "button", "layout", "theme", "joined", "is_active", "is_public", "welcome", "verse_id", "verse_ref", "verse_text", "verse_day", "verse_pinned", "updated_at", "bio" FROM "profiles"`);
    await queryRunner.query(`DROP TABLE "profiles"`);
    await queryRunner.query(`ALTER TABLE "temporary_profiles" RENAME TO "profiles"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_profiles_username" ON "profiles" ("username") `);
    await queryRunner.query(`CREATE TABLE "temporary_verses" ("id" varchar(24) NOT NULL, "book" varchar(8) NOT NULL, "chapter" integer NOT NULL, "verse" integer NOT NULL, "ref" varchar(40) NOT NULL, "text" text NOT NULL, "translation" varchar(8) NOT NULL, PRIMARY KEY ("id", "translation"))`);
    await queryRunner.query(`INSERT INTO "temporary_verses"("id", "book", "chapter", "verse", "ref", "text", "translation") SELECT "id", "book", "chapter", "verse", "ref", "text", "translation" FROM "verses"`);
    await queryRunner.query(`DROP TABLE "verses"`);
    await queryRunner.query(`ALTER TABLE "temporary_verses" RENAME TO "verses"`);
    await queryRunner.query(`DROP INDEX "IDX_saved_verses_uid_saved_at"`);
    await queryRunner.query(`CREATE TABLE "temporary_saved_verses" ("uid" varchar(36) NOT NULL, "verse_id" varchar(24) NOT NULL, "saved_at" bigint NOT NULL, CONSTRAINT "FK_1e625ffe13de1380799d16a8c61" FOREIGN KEY ("uid") REFERENCES "users" ("uid") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("uid", "verse_id"))`);
    await queryRunner.query(`INSERT INTO "temporary_saved_verses"("uid", "verse_id", "saved_at") SELECT "uid", "verse_id", "saved_at" FROM "saved_verses"`);
    await queryRunner.query(`DROP TABLE "saved_verses"`);
    await queryRunner.query(`ALTER TABLE "temporary_saved_verses" RENAME TO "saved_verses"`);
    await queryRunner.query(`CREATE INDEX "IDX_saved_verses_uid_saved_at" ON "saved_verses" ("uid", "saved_at") `);
    await queryRunner.query(`CREATE TABLE "temporary_verse_mail_subscriptions" ("uid" varchar(36) PRIMARY KEY NOT NULL, "hour" integer NOT NULL, "time_zone" varchar(64) NOT NULL, "created_at" bigint NOT NULL, CONSTRAINT "FK_1e2f677a674da6c0e7241b873e0" FOREIGN KEY ("uid") REFERENCES "users" ("uid") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "temporary_verse_mail_subscriptions"("uid", "hour", "time_zone", "created_at") SELECT "uid", "hour", "time_zone", "created_at" FROM "verse_mail_subscriptions"`);
    await queryRunner.query(`DROP TABLE "verse_mail_subscriptions"`);
    await queryRunner.query(`ALTER TABLE "temporary_verse_mail_subscriptions" RENAME TO "verse_mail_subscriptions"`);
    await queryRunner.query(`DROP INDEX "IDX_verse_mail_sends_unsubscribe"`);
    await queryRunner.query(`CREATE TABLE "temporary_verse_mail_sends" ("uid" varchar(36) NOT NULL, "day" varchar(10) NOT NULL, "status" varchar(8) NOT NULL, "attempts" integer NOT NULL, "claimed_until" bigint NOT NULL, "unsubscribe_hash" varchar(64) NOT NULL, CONSTRAINT "FK_40d4c417abc361d70fd240f0682" FOREIGN KEY ("uid") REFERENCES "users" ("uid") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("uid", "day"))`);
    await queryRunner.query(`INSERT INTO "temporary_verse_mail_sends"("uid", "day", "status", "attempts", "claimed_until", "unsubscribe_hash") SELECT "uid", "day", "status", "attempts", "claimed_until", "unsubscribe_hash" FROM "verse_mail_sends"`);
    await queryRunner.query(`DROP TABLE "verse_mail_sends"`);
    await queryRunner.query(`ALTER TABLE "temporary_verse_mail_sends" RENAME TO "verse_mail_sends"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_verse_mail_sends_unsubscribe" ON "verse_mail_sends" ("unsubscribe_hash") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_verse_mail_sends_unsubscribe"`);
    await queryRunner.query(`ALTER TABLE "verse_mail_sends" RENAME TO "temporary_verse_mail_sends"`);
    await queryRunner.query(`CREATE TABLE "verse_mail_sends" ("uid" varchar(36) NOT NULL, "day" varchar(10) NOT NULL, "status" varchar(8) NOT NULL, "attempts" integer NOT NULL, "claimed_until" bigint NOT NULL, "unsubscribe_hash" varchar(64) NOT NULL, PRIMARY KEY ("uid", "day"))`);
    await queryRunner.query(`INSERT INTO "verse_mail_sends"("uid", "day", "status", "attempts", "claimed_until", "unsubscribe_hash") SELECT "uid", "day", "status", "attempts", "claimed_until", "unsubscribe_hash" FROM "temporary_verse_mail_sends"`);
    await queryRunner.query(`DROP TABLE "temporary_verse_mail_sends"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_verse_mail_sends_unsubscribe" ON "verse_mail_sends" ("unsubscribe_hash") `);
    await queryRunner.query(`ALTER TABLE "verse_mail_subscriptions" RENAME TO "temporary_verse_mail_subscriptions"`);
    await queryRunner.query(`CREATE TABLE "verse_mail_subscriptions" ("uid" varchar(36) PRIMARY KEY NOT NULL, "hour" integer NOT NULL, "time_zone" varchar(64) NOT NULL, "created_at" bigint NOT NULL)`);
    await queryRunner.query(`INSERT INTO "verse_mail_subscriptions"("uid", "hour", "time_zone", "created_at") SELECT "uid", "hour", "time_zone", "created_at" FROM "temporary_verse_mail_subscriptions"`);
    await queryRunner.query(`DROP TABLE "temporary_verse_mail_subscriptions"`);
    await queryRunner.query(`DROP INDEX "IDX_saved_verses_uid_saved_at"`);
    await queryRunner.query(`ALTER TABLE "saved_verses" RENAME TO "temporary_saved_verses"`);
    await queryRunner.query(`CREATE TABLE "saved_verses" ("uid" varchar(36) NOT NULL, "verse_id" varchar(24) NOT NULL, "saved_at" bigint NOT NULL, PRIMARY KEY ("uid", "verse_id"))`);
    await queryRunner.query(`INSERT INTO "saved_verses"("uid", "verse_id", "saved_at") SELECT "uid", "verse_id", "saved_at" FROM "temporary_saved_verses"`);
    await queryRunner.query(`DROP TABLE "temporary_saved_verses"`);
    await queryRunner.query(`CREATE INDEX "IDX_saved_verses_uid_saved_at" ON "saved_verses" ("uid", "saved_at") `);
    await queryRunner.query(`ALTER TABLE "verses" RENAME TO "temporary_verses"`);
    await queryRunner.query(`CREATE TABLE "verses" ("id" varchar(24) PRIMARY KEY NOT NULL, "book" varchar(8) NOT NULL, "chapter" integer NOT NULL, "verse" integer NOT NULL, "ref" varchar(40) NOT NULL, "text" text NOT NULL, "translation" varchar(8) NOT NULL)`);
    await queryRunner.query(`INSERT INTO "verses"("id", "book", "chapter", "verse", "ref", "text", "translation") SELECT "id", "book", "chapter", "verse", "ref", "text", "translation" FROM "temporary_verses"`);
    await queryRunner.query(`DROP TABLE "temporary_verses"`);
    await queryRunner.query(`DROP INDEX "UQ_profiles_username"`);
    await queryRunner.query(`ALTER TABLE "profiles" RENAME TO "temporary_profiles"`);
    await queryRunner.query(`CREATE TABLE "profiles" ("uid" varchar(36) PRIMARY KEY NOT NULL, "name" varchar(50) NOT NULL, "username" varchar(30) NOT NULL, "button" varchar(32) NOT NULL, "layout" varchar(16) NOT NULL, "theme" varchar(32) NOT NULL, "joined" bigint NOT NULL, "is_active" boolean NOT NULL, "is_public" boolean NOT NULL, "welcome" boolean NOT NULL, "verse_id" varchar(24) NOT NULL, "verse_ref" varchar(40) NOT NULL, "verse_text" text NOT NULL, "verse_day" varchar(10) NOT NULL, "verse_pinned" boolean NOT NULL, "updated_at" bigint NOT NULL, "bio" varchar(160) NOT NULL DEFAULT (''), CONSTRAINT "FK_b097dff5d678b502da19845d32f" FOREIGN KEY ("uid") REFERENCES "users" ("uid") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "profiles"("uid", "name", "username", "button", "layout", "theme", "joined", "is_active", "is_public", "welcome", "verse_id", "verse_ref", "verse_text", "verse_day", "verse_pinned", "updated_at", "bio") SELECT "uid", "name", "username", "button", "layout", "theme", "joined", "is_active", "is_public", "welcome", "verse_id", "verse_ref", "verse_text", "verse_day", "verse_pinned", "updated_at", "bio" FROM "temporary_profiles"`);
    await queryRunner.query(`DROP TABLE "temporary_profiles"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_profiles_username" ON "profiles" ("username") `);
    await queryRunner.query(`DROP INDEX "IDX_verse_mail_sends_unsubscribe"`);
    await queryRunner.query(`DROP TABLE "verse_mail_sends"`);
    await queryRunner.query(`DROP TABLE "verse_mail_subscriptions"`);
    await queryRunner.query(`DROP INDEX "IDX_saved_verses_uid_saved_at"`);
    await queryRunner.query(`DROP TABLE "saved_verses"`);
  }
}
