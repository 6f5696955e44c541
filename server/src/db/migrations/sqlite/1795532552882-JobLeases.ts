import type { MigrationInterface, QueryRunner } from 'typeorm';

export class JobLeases1795532552882 implements MigrationInterface {
  name = 'JobLeases1795532552882';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "job_leases" ("name" varchar(64) PRIMARY KEY NOT NULL, "next_run_at" bigint NOT NULL)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "job_leases"`);
  }
}
