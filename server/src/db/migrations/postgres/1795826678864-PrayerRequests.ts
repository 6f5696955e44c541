import type { MigrationInterface, QueryRunner } from 'typeorm';

export class PrayerRequests1795826678864 implements MigrationInterface {
  name = 'PrayerRequests1795826678864';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "prayer_settings" ("uid" character varying(36) NOT NULL, "enabled" boolean NOT NULL DEFAULT false, "prompt" character varying(200), "daily_digest" boolean NOT NULL DEFAULT false, "retention_days" integer NOT NULL DEFAULT '90', "notified_at" bigint, CONSTRAINT "PK_f458ac2edfb16067bf38b7289ff" PRIMARY KEY ("uid"))`);
    await queryRunner.query(`CREATE TABLE "prayer_requests" ("id" character varying(36) NOT NULL, "uid" character varying(36) NOT NULL, "body" text NOT NULL, "first_name" character varying(50), "reply_to" character varying(254), "keep_private" boolean NOT NULL DEFAULT false, "created_at" bigint NOT NULL, "read_at" bigint, "prayed_at" bigint, "replied_at" bigint, "reported_at" bigint, "notified" boolean NOT NULL DEFAULT false, CONSTRAINT "PK_000f6743347f872383f59655a52" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_prayer_requests_uid_created" ON "prayer_requests"  ("uid", "created_at") `);
    await queryRunner.query(`CREATE TABLE "prayer_challenges" ("challenge" character varying(64) NOT NULL, "expires_at" bigint NOT NULL, CONSTRAINT "PK_c5e70ebc43db69422966abf79c2" PRIMARY KEY ("challenge"))`);
    await queryRunner.query(`CREATE INDEX "IDX_prayer_challenges_expires" ON "prayer_challenges"  ("expires_at") `);
    await queryRunner.query(`ALTER TABLE "prayer_settings" ADD CONSTRAINT "FK_f458ac2edfb16067bf38b7289ff" FOREIGN KEY ("uid") REFERENCES "users"("uid") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "prayer_requests" ADD CONSTRAINT "FK_b6a7d257f5e0d14c3469e61e50e" FOREIGN KEY ("uid") REFERENCES "users"("uid") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "prayer_requests" DROP CONSTRAINT "FK_b6a7d257f5e0d14c3469e61e50e"`);
    await queryRunner.query(`ALTER TABLE "prayer_settings" DROP CONSTRAINT "FK_f458ac2edfb16067bf38b7289ff"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_prayer_challenges_expires"`);
    await queryRunner.query(`DROP TABLE "prayer_challenges"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_prayer_requests_uid_created"`);
    await queryRunner.query(`DROP TABLE "prayer_requests"`);
    await queryRunner.query(`DROP TABLE "prayer_settings"`);
  }
}
