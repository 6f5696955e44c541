import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ProfilePhotos1795576877602 implements MigrationInterface {
  name = 'ProfilePhotos1795576877602';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "profile_photos" ("uid" character varying(36) NOT NULL, "version" character varying(32) NOT NULL, "webp" text NOT NULL, "updated_at" bigint NOT NULL, CONSTRAINT "PK_d8db4799b3b0bc00d492d41e1dc" PRIMARY KEY ("uid"))`);
    await queryRunner.query(`ALTER TABLE "profile_photos" ADD CONSTRAINT "FK_d8db4799b3b0bc00d492d41e1dc" FOREIGN KEY ("uid") REFERENCES "profiles"("uid") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "profile_photos" DROP CONSTRAINT "FK_d8db4799b3b0bc00d492d41e1dc"`);
    await queryRunner.query(`DROP TABLE "profile_photos"`);
  }
}
