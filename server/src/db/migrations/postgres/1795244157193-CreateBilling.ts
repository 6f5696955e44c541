import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateBilling1795244157193 implements MigrationInterface {
  name = 'CreateBilling1795244157193';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "billing_customers" ("uid" character varying(36) NOT NULL, "customer_id" character varying(255) NOT NULL, "created_at" bigint NOT NULL, CONSTRAINT "PK_8a2f5e4dc86e942870085b9b2c5" PRIMARY KEY ("uid"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_billing_customers_customer" ON "billing_customers"  ("customer_id") `);
    await queryRunner.query(`CREATE TABLE "billing_products" ("id" character varying(255) NOT NULL, "name" character varying(255) NOT NULL, "description" text, "active" boolean NOT NULL, "role" character varying(32), "synced_at" bigint NOT NULL, CONSTRAINT "PK_a750e7af6091f8883045f1c75e1" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "billing_prices" ("id" character varying(255) NOT NULL, "product_id" character varying(255) NOT NULL, "active" boolean NOT NULL, "currency" character varying(3) NOT NULL, "unit_amount" integer, "interval" character varying(8), "interval_count" integer, "synced_at" bigint NOT NULL, CONSTRAINT "PK_b0c39809c689831e561059837b9" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_billing_prices_product" ON "billing_prices"  ("product_id") `);
    await queryRunner.query(`CREATE TABLE "billing_subscriptions" ("id" character varying(255) NOT NULL, "uid" character varying(36) NOT NULL, "customer_id" character varying(255) NOT NULL, "status" character varying(32) NOT NULL, "price_id" character varying(255), "role" character varying(32), "current_period_end" bigint, "cancel_at_period_end" boolean NOT NULL, "past_due_since" bigint, "synced_at" bigint NOT NULL, CONSTRAINT "PK_da12bd094f95ed1a9ad21b0b2df" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_billing_subscriptions_uid" ON "billing_subscriptions"  ("uid") `);
    await queryRunner.query(`CREATE TABLE "billing_events" ("id" character varying(255) NOT NULL, "type" character varying(100) NOT NULL, "created_at" bigint NOT NULL, "processed_at" bigint NOT NULL, "uid" character varying(36), CONSTRAINT "PK_9a4a4a1b1f55bbc868f6a76a597" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "billing_grants" ("uid" character varying(36) NOT NULL, "granted_at" bigint NOT NULL, CONSTRAINT "PK_3adb2238425c5e8aa6f006e9764" PRIMARY KEY ("uid"))`);
    await queryRunner.query(`CREATE TABLE "billing_pending_claims" ("uid" character varying(36) NOT NULL, "queued_at" bigint NOT NULL, CONSTRAINT "PK_a7ab521b0885a7567f9572c944b" PRIMARY KEY ("uid"))`);
    await queryRunner.query(`ALTER TABLE "billing_customers" ADD CONSTRAINT "FK_8a2f5e4dc86e942870085b9b2c5" FOREIGN KEY ("uid") REFERENCES "users"("uid") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "FK_c06e0c4dbf76306debc6b2f38ab" FOREIGN KEY ("uid") REFERENCES "users"("uid") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "billing_grants" ADD CONSTRAINT "FK_3adb2238425c5e8aa6f006e9764" FOREIGN KEY ("uid") REFERENCES "users"("uid") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "billing_pending_claims" ADD CONSTRAINT "FK_a7ab521b0885a7567f9572c944b" FOREIGN KEY ("uid") REFERENCES "users"("uid") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "billing_pending_claims" DROP CONSTRAINT "FK_a7ab521b0885a7567f9572c944b"`);
    await queryRunner.query(`ALTER TABLE "billing_grants" DROP CONSTRAINT "FK_3adb2238425c5e8aa6f006e9764"`);
    await queryRunner.query(`ALTER TABLE "billing_subscriptions" DROP CONSTRAINT "FK_c06e0c4dbf76306debc6b2f38ab"`);
    await queryRunner.query(`ALTER TABLE "billing_customers" DROP CONSTRAINT "FK_8a2f5e4dc86e942870085b9b2c5"`);
    await queryRunner.query(`DROP TABLE "billing_pending_claims"`);
    await queryRunner.query(`DROP TABLE "billing_grants"`);
    await queryRunner.query(`DROP TABLE "billing_events"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_billing_subscriptions_uid"`);
    await queryRunner.query(`DROP TABLE "billing_subscriptions"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_billing_prices_product"`);
    await queryRunner.query(`DROP TABLE "billing_prices"`);
    await queryRunner.query(`DROP TABLE "billing_products"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_billing_customers_customer"`);
    await queryRunner.query(`DROP TABLE "billing_customers"`);
  }
}
