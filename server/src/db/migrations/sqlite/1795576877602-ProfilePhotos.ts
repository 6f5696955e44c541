import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ProfilePhotos1795576877602 implements MigrationInterface {
  name = 'ProfilePhotos1795576877602';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "profile_photos" ("uid" varchar(36) PRIMARY KEY NOT NULL, "version" varchar(32) NOT NULL, "webp" text NOT NULL, "updated_at" bigint NOT NULL)`);
    await queryRunner.query(`CREATE TABLE "temporary_profile_photos" ("uid" varchar(36) PRIMARY KEY NOT NULL, "version" varchar(32) NOT NULL, "webp" text NOT NULL, "updated_at" bigint NOT NULL, CONSTRAINT "FK_d8db4799b3b0bc00d492d41e1dc" FOREIGN KEY ("uid") REFERENCES "profiles" ("uid") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "temporary_profile_photos"("uid", "version", "webp", "updated_at") SELECT "uid", "version", "webp", "updated_at" FROM "profile_photos"`);
    await queryRunner.query(`DROP TABLE "profile_photos"`);
    await queryRunner.query(`ALTER TABLE "temporary_profile_photos" RENAME TO "profile_photos"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "profile_photos" RENAME TO "temporary_profile_photos"`);
    await queryRunner.query(`CREATE TABLE "profile_photos" ("uid" varchar(36) PRIMARY KEY NOT NULL, "version" varchar(32) NOT NULL, "webp" text NOT NULL, "updated_at" bigint NOT NULL)`);
    await queryRunner.query(`INSERT INTO "profile_photos"("uid", "version", "webp", "updated_at") SELECT "uid", "version", "webp", "updated_at" FROM "temporary_profile_photos"`);
    await queryRunner.query(`DROP TABLE "temporary_profile_photos"`);
    await queryRunner.query(`DROP TABLE "profile_photos"`);
  }
}
