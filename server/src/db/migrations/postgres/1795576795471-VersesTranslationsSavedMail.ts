import type { MigrationInterface, QueryRunner } from 'typeorm';

export class VersesTranslationsSavedMail1795576795471 implements MigrationInterface {
  name = 'VersesTranslationsSavedMail1795576795471';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "saved_verses" ("uid" character varying(36) NOT NULL, "verse_id" character varying(24) NOT NULL, "saved_at" bigint NOT NULL, CONSTRAINT "PK_4b1112d906f179233274a96aac2" PRIMARY KEY ("uid", "verse_id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_saved_verses_uid_saved_at" ON "saved_verses"  ("uid", "saved_at") `);
    await queryRunner.query(`CREATE TABLE "verse_mail_subscriptions" ("uid" character varying(36) NOT NULL, "hour" integer NOT NULL, "time_zone" character varying(64) NOT NULL, "created_at" bigint NOT NULL, CONSTRAINT "PK_1e2f677a674da6c0e7241b873e0" PRIMARY KEY ("uid"))`);
    await queryRunner.query(`CREATE TABLE "verse_mail_sends" ("uid" character varying(36) NOT NULL, "day" character varying(10) NOT NULL, "status" character varying(8) NOT NULL, "attempts" integer NOT NULL, "claimed_until" bigint NOT NULL, "unsubscribe_hash" character varying(64) NOT NULL, CONSTRAINT "PK_47dc007370262a02a4a78f337f6" PRIMARY KEY ("uid", "day"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_verse_mail_sends_unsubscribe" ON "verse_mail_sends"  ("unsubscribe_hash") `);
    await queryRunner.query(`ALTER TABLE "profiles" ADD "translation" character varying(8) NOT NULL DEFAULT 'KJV'`);
    await queryRunner.query(`ALTER TABLE "verses" DROP CONSTRAINT "PK_40259e26328da1d6e0f0e0a19a5"`);
    await queryRunner.query(`ALTER TABLE "verses" ADD CONSTRAINT "PK_b89980ff3e093f2dfb52f683565" PRIMARY KEY ("id", "translation")`);
    await queryRunner.query(`ALTER TABLE "saved_verses" ADD CONSTRAINT "FK_1e625ffe13de1380799d16a8c61" FOREIGN KEY ("uid") REFERENCES "users"("uid") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "verse_mail_subscriptions" ADD CONSTRAINT "FK_1e2f677a674da6c0e7241b873e0" FOREIGN KEY ("uid") REFERENCES "users"("uid") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "verse_mail_sends" ADD CONSTRAINT "FK_40d4c417abc361d70fd240f0682" FOREIGN KEY ("uid") REFERENCES "users"("uid") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "verse_mail_sends" DROP CONSTRAINT "FK_40d4c417abc361d70fd240f0682"`);
    await queryRunner.query(`ALTER TABLE "verse_mail_subscriptions" DROP CONSTRAINT "FK_1e2f677a674da6c0e7241b873e0"`);
    await queryRunner.query(`ALTER TABLE "saved_verses" DROP CONSTRAINT "FK_1e625ffe13de1380799d16a8c61"`);
    await queryRunner.query(`ALTER TABLE "verses" DROP CONSTRAINT "PK_b89980ff3e093f2dfb52f683565"`);
    await queryRunner.query(`ALTER TABLE "verses" ADD CONSTRAINT "PK_40259e26328da1d6e0f0e0a19a5" PRIMARY KEY ("id")`);
    await queryRunner.query(`ALTER TABLE "profiles" DROP COLUMN "translation"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_verse_mail_sends_unsubscribe"`);
    await queryRunner.query(`DROP TABLE "verse_mail_sends"`);
    await queryRunner.query(`DROP TABLE "verse_mail_subscriptions"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_saved_verses_uid_saved_at"`);
    await queryRunner.query(`DROP TABLE "saved_verses"`);
  }
}
