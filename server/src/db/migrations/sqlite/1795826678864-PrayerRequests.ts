import type { MigrationInterface, QueryRunner } from 'typeorm';

export class PrayerRequests1795826678864 implements MigrationInterface {
  name = 'PrayerRequests1795826678864';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "prayer_settings" ("uid" varchar(36) PRIMARY KEY NOT NULL, "enabled" boolean NOT NULL DEFAULT (0), "prompt" varchar(200), "daily_digest" boolean NOT NULL DEFAULT (0), "retention_days" integer NOT NULL DEFAULT (90), "notified_at" bigint)`);
    await queryRunner.query(`CREATE TABLE "prayer_requests" ("id" varchar(36) PRIMARY KEY NOT NULL, "uid" varchar(36) NOT NULL, "body" text NOT NULL, "first_name" varchar(50), "reply_to" varchar(254), "keep_private" boolean NOT NULL DEFAULT (0), "created_at" bigint NOT NULL, "read_at" bigint, "prayed_at" bigint, "replied_at" bigint, "reported_at" bigint, "notified" boolean NOT NULL DEFAULT (0))`);
    await queryRunner.query(`CREATE INDEX "IDX_prayer_requests_uid_created" ON "prayer_requests" ("uid", "created_at") `);
    await queryRunner.query(`CREATE TABLE "prayer_challenges" ("challenge" varchar(64) PRIMARY KEY NOT NULL, "expires_at" bigint NOT NULL)`);
    await queryRunner.query(`CREATE INDEX "IDX_prayer_challenges_expires" ON "prayer_challenges" ("expires_at") `);
    await queryRunner.query(`CREATE TABLE "temporary_prayer_settings" ("uid" varchar(36) PRIMARY KEY NOT NULL, "enabled" boolean NOT NULL DEFAULT (0), "prompt" varchar(200), "daily_digest" boolean NOT NULL DEFAULT (0), "retention_days" integer NOT NULL DEFAULT (90), "notified_at" bigint, CONSTRAINT "FK_f458ac2edfb16067bf38b7289ff" FOREIGN KEY ("uid") REFERENCES "users" ("uid") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "temporary_prayer_settings"("uid", "enabled", "prompt", "daily_digest", "retention_days", "notified_at") SELECT "uid", "enabled", "prompt", "daily_digest", "retention_days", "notified_at" FROM "prayer_settings"`);
    await queryRunner.query(`DROP TABLE "prayer_settings"`);
    await queryRunner.query(`ALTER TABLE "temporary_prayer_settings" RENAME TO "prayer_settings"`);
    await queryRunner.query(`DROP INDEX "IDX_prayer_requests_uid_created"`);
    await queryRunner.query(`CREATE TABLE "temporary_prayer_requests" ("id" varchar(36) PRIMARY KEY NOT NULL, "uid" varchar(36) NOT NULL, "body" text NOT NULL, "first_name" varchar(50), "reply_to" varchar(254), "keep_private" boolean NOT NULL DEFAULT (0), "created_at" bigint NOT NULL, "read_at" bigint, "prayed_at" bigint, "replied_at" bigint, "reported_at" bigint, "notified" boolean NOT NULL DEFAULT (0), CONSTRAINT "FK_b6a7d257f5e0d14c3469e61e50e" FOREIGN KEY ("uid") REFERENCES "users" ("uid") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "temporary_prayer_requests"("id", "uid", "body", "first_name", "reply_to", "keep_private", "created_at", "read_at", "prayed_at", "replied_at", "reported_at", "notified") SELECT "id", "uid", "body", "first_name", "reply_to", "keep_private", "created_at", "read_at", "prayed_at", "replied_at", "reported_at", "notified" FROM "prayer_requests"`);
    await queryRunner.query(`DROP TABLE "prayer_requests"`);
    await queryRunner.query(`ALTER TABLE "temporary_prayer_requests" RENAME TO "prayer_requests"`);
    await queryRunner.query(`CREATE INDEX "IDX_prayer_requests_uid_created" ON "prayer_requests" ("uid", "created_at") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_prayer_requests_uid_created"`);
    await queryRunner.query(`ALTER TABLE "prayer_requests" RENAME TO "temporary_prayer_requests"`);
    await queryRunner.query(`CREATE TABLE "prayer_requests" ("id" varchar(36) PRIMARY KEY NOT NULL, "uid" varchar(36) NOT NULL, "body" text NOT NULL, "first_name" varchar(50), "reply_to" varchar(254), "keep_private" boolean NOT NULL DEFAULT (0), "created_at" bigint NOT NULL, "read_at" bigint, "prayed_at" bigint, "replied_at" bigint, "reported_at" bigint, "notified" boolean NOT NULL DEFAULT (0))`);
    await queryRunner.query(`INSERT INTO "prayer_requests"("id", "uid", "body", "first_name", "reply_to", "keep_private", "created_at", "read_at", "prayed_at", "replied_at", "reported_at", "notified") SELECT "id", "uid", "body", "first_name", "reply_to", "keep_private", "created_at", "read_at", "prayed_at", "replied_at", "reported_at", "notified" FROM "temporary_prayer_requests"`);
    await queryRunner.query(`DROP TABLE "temporary_prayer_requests"`);
    await queryRunner.query(`CREATE INDEX "IDX_prayer_requests_uid_created" ON "prayer_requests" ("uid", "created_at") `);
    await queryRunner.query(`ALTER TABLE "prayer_settings" RENAME TO "temporary_prayer_settings"`);
    await queryRunner.query(`CREATE TABLE "prayer_settings" ("uid" varchar(36) PRIMARY KEY NOT NULL, "enabled" boolean NOT NULL DEFAULT (0), "prompt" varchar(200), "daily_digest" boolean NOT NULL DEFAULT (0), "retention_days" integer NOT NULL DEFAULT (90), "notified_at" bigint)`);
    await queryRunner.query(`INSERT INTO "prayer_settings"("uid", "enabled", "prompt", "daily_digest", "retention_days", "notified_at") SELECT "uid", "enabled", "prompt", "daily_digest", "retention_days", "notified_at" FROM "temporary_prayer_settings"`);
    await queryRunner.query(`DROP TABLE "temporary_prayer_settings"`);
    await queryRunner.query(`DROP INDEX "IDX_prayer_challenges_expires"`);
    await queryRunner.query(`DROP TABLE "prayer_challenges"`);
    await queryRunner.query(`DROP INDEX "IDX_prayer_requests_uid_created"`);
    await queryRunner.query(`DROP TABLE "prayer_requests"`);
    await queryRunner.query(`DROP TABLE "prayer_settings"`);
  }
}
