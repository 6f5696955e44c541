import type { MigrationInterface, QueryRunner } from 'typeorm';

export class JobLeases1795532552882 implements MigrationInterface {
  name = 'JobLeases1795532552882';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "job_leases" ("name" character varying(64) NOT NULL, "next_run_at" bigint NOT NULL, CONSTRAINT "PK_a5aaa7b6169ce751dd85a6f0beb" PRIMARY KEY ("name"))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "job_leases"`);
  }
}
