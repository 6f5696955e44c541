import type { MigrationInterface, QueryRunner } from 'typeorm';

export class LinksAndBio1795547667505 implements MigrationInterface {
  name = 'LinksAndBio1795547667505';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "links" ("id" character varying(36) NOT NULL, "uid" character varying(36) NOT NULL, "title" character varying(80) NOT NULL, "url" character varying(2048) NOT NULL, "position" integer NOT NULL, "hidden" boolean NOT NULL, "created_at" bigint NOT NULL, CONSTRAINT "PK_ecf17f4a741d3c5ba0b4c5ab4b6" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_links_uid_position" ON "links"  ("uid", "position") `);
    await queryRunner.query(`CREATE TABLE "page_view_days" ("uid" character varying(36) NOT NULL, "day" character varying(10) NOT NULL, "views" integer NOT NULL, CONSTRAINT "PK_b8e219e207e80bfd413b4426154" PRIMARY KEY ("uid", "day"))`);
    await queryRunner.query(`CREATE TABLE "link_click_days" ("link_id" character varying(36) NOT NULL, "day" character varying(10) NOT NULL, "uid" character varying(36) NOT NULL, "clicks" integer NOT NULL, CONSTRAINT "PK_f6102daf7673250dacef7b0569a" PRIMARY KEY ("link_id", "day"))`);
    await queryRunner.query(`CREATE INDEX "IDX_link_click_days_uid_day" ON "link_click_days" ("uid", "day") `);
    await queryRunner.query(`ALTER TABLE "profiles" ADD "bio" character varying(160) NOT NULL DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE "links" ADD CONSTRAINT "FK_774eaf4f138e67253a2f55ea17e" FOREIGN KEY ("uid") REFERENCES "profiles"("uid") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "page_view_days" ADD CONSTRAINT "FK_01a67b3d23935c41f946f3009ff" FOREIGN KEY ("uid") REFERENCES "profiles"("uid") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "link_click_days" ADD CONSTRAINT "FK_70d3ea776880b51e7862ff44f12" FOREIGN KEY ("uid") REFERENCES "profiles"("uid") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "link_click_days" DROP CONSTRAINT "FK_70d3ea776880b51e7862ff44f12"`);
    await queryRunner.query(`ALTER TABLE "page_view_days" DROP CONSTRAINT "FK_01a67b3d23935c41f946f3009ff"`);
    await queryRunner.query(`ALTER TABLE "links" DROP CONSTRAINT "FK_774eaf4f138e67253a2f55ea17e"`);
    await queryRunner.query(`ALTER TABLE "profiles" DROP COLUMN "bio"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_link_click_days_uid_day"`);
    await queryRunner.query(`DROP TABLE "link_click_days"`);
    await queryRunner.query(`DROP TABLE "page_view_days"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_links_uid_position"`);
    await queryRunner.query(`DROP TABLE "links"`);
  }
}
