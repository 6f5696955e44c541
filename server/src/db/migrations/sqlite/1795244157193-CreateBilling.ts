import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateBilling1795244157193 implements MigrationInterface {
  name = 'CreateBilling1795244157193';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "billing_customers" ("uid" varchar(36) PRIMARY KEY NOT NULL, "customer_id" varchar(255) NOT NULL, "created_at" bigint NOT NULL)`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_billing_customers_customer" ON "billing_customers" ("customer_id") `);
    await queryRunner.query(`CREATE TABLE "billing_products" ("id" varchar(255) PRIMARY KEY NOT NULL, "name" varchar(255) NOT NULL, "description" text, "active" boolean NOT NULL, "role" varchar(32), "synced_at" bigint NOT NULL)`);
    await queryRunner.query(`CREATE TABLE "billing_prices" ("id" varchar(255) PRIMARY KEY NOT NULL, "product_id" varchar(255) NOT NULL, "active" boolean NOT NULL, "currency" varchar(3) NOT NULL, "unit_amount" integer, "interval" varchar(8), "interval_count" integer, "synced_at" bigint NOT NULL)`);
    await queryRunner.query(`CREATE INDEX "IDX_billing_prices_product" ON "billing_prices" ("product_id") `);
    await queryRunner.query(`CREATE TABLE "billing_subscriptions" ("id" varchar(255) PRIMARY KEY NOT NULL, "uid" varchar(36) NOT NULL, "customer_id" varchar(255) NOT NULL, "status" varchar(32) NOT NULL, "price_id" varchar(255), "role" varchar(32), "current_period_end" bigint, "cancel_at_period_end" boolean NOT NULL, "past_due_since" bigint, "synced_at" bigint NOT NULL)`);
    await queryRunner.query(`CREATE INDEX "IDX_billing_subscriptions_uid" ON "billing_subscriptions" ("uid") `);
    await queryRunner.query(`CREATE TABLE "billing_events" ("id" varchar(255) PRIMARY KEY NOT NULL, "type" varchar(100) NOT NULL, "created_at" bigint NOT NULL, "processed_at" bigint NOT NULL, "uid" varchar(36))`);
    await queryRunner.query(`CREATE TABLE "billing_grants" ("uid" varchar(36) PRIMARY KEY NOT NULL, "granted_at" bigint NOT NULL)`);
    await queryRunner.query(`CREATE TABLE "billing_pending_claims" ("uid" varchar(36) PRIMARY KEY NOT NULL, "queued_at" bigint NOT NULL)`);
    await queryRunner.query(`DROP INDEX "UQ_billing_customers_customer"`);
    await queryRunner.query(`CREATE TABLE "temporary_billing_customers" ("uid" varchar(36) PRIMARY KEY NOT NULL, "customer_id" varchar(255) NOT NULL, "created_at" bigint NOT NULL, CONSTRAINT "FK_8a2f5e4dc86e942870085b9b2c5" FOREIGN KEY ("uid") REFERENCES "users" ("uid") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "temporary_billing_customers"("uid", "customer_id", "created_at") SELECT "uid", "customer_id", "created_at" FROM "billing_customers"`);
    await queryRunner.query(`DROP TABLE "billing_customers"`);
    await queryRunner.query(`ALTER TABLE "temporary_billing_customers" RENAME TO "billing_customers"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_billing_customers_customer" ON "billing_customers" ("customer_id") `);
    await queryRunner.query(`DROP INDEX "IDX_billing_subscriptions_uid"`);
    await queryRunner.query(`CREATE TABLE "temporary_billing_subscriptions" ("id" varchar(255) PRIMARY KEY NOT NULL, "uid" varchar(36) NOT NULL, "customer_id" varchar(255) NOT NULL, "status" varchar(32) NOT NULL, "price_id" varchar(255), "role" varchar(32), "current_period_end" bigint, "cancel_at_period_end" boolean NOT NULL, "past_due_since" bigint, "synced_at" bigint NOT NULL, CONSTRAINT "FK_c06e0c4dbf76306debc6b2f38ab" FOREIGN KEY ("uid") REFERENCES "users" ("uid") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "temporary_billing_subscriptions"("id", "uid", "customer_id", "status", "price_id", "role", "current_period_end", "cancel_at_period_end", "past_due_since", "synced_at") SELECT "id", "uid", "customer_id", "status", "price_id", "role", "current_period_end", "cancel_at_period_end", "past_due_since", "synced_at" FROM "billing_subscriptions"`);
    await queryRunner.query(`DROP TABLE "billing_subscriptions"`);
    await queryRunner.query(`ALTER TABLE "temporary_billing_subscriptions" RENAME TO "billing_subscriptions"`);
    await queryRunner.query(`CREATE INDEX "IDX_billing_subscriptions_uid" ON "billing_subscriptions" ("uid") `);
    await queryRunner.query(`CREATE TABLE "temporary_billing_grants" ("uid" varchar(36) PRIMARY KEY NOT NULL, "granted_at" bigint NOT NULL, CONSTRAINT "FK_3adb2238425c5e8aa6f006e9764" FOREIGN KEY ("uid") REFERENCES "users" ("uid") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "temporary_billing_grants"("uid", "granted_at") SELECT "uid", "granted_at" FROM "billing_grants"`);
    await queryRunner.query(`DROP TABLE "billing_grants"`);
    await queryRunner.query(`ALTER TABLE "temporary_billing_grants" RENAME TO "billing_grants"`);
    await queryRunner.query(`CREATE TABLE "temporary_billing_pending_claims" ("uid" varchar(36) PRIMARY KEY NOT NULL, "queued_at" bigint NOT NULL, CONSTRAINT "FK_a7ab521b0885a7567f9572c944b" FOREIGN KEY ("uid") REFERENCES "users" ("uid") ON DELETE CASCADE ON UPDATE NO ACTION)`);
    await queryRunner.query(`INSERT INTO "temporary_billing_pending_claims"("uid", "queued_at") SELECT "uid", "queued_at" FROM "billing_pending_claims"`);
    await queryRunner.query(`DROP TABLE "billing_pending_claims"`);
    await queryRunner.query(`ALTER TABLE "temporary_billing_pending_claims" RENAME TO "billing_pending_claims"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "billing_pending_claims" RENAME TO "temporary_billing_pending_claims"`);
    await queryRunner.query(`CREATE TABLE "billing_pending_claims" ("uid" varchar(36) PRIMARY KEY NOT NULL, "queued_at" bigint NOT NULL)`);
    await queryRunner.query(`INSERT INTO "billing_pending_claims"("uid", "queued_at") SELECT "uid", "queued_at" FROM "temporary_billing_pending_claims"`);
    await queryRunner.query(`DROP TABLE "temporary_billing_pending_claims"`);
    await queryRunner.query(`ALTER TABLE "billing_grants" RENAME TO "temporary_billing_grants"`);
    await queryRunner.query(`CREATE TABLE "billing_grants" ("uid" varchar(36) PRIMARY KEY NOT NULL, "granted_at" bigint NOT NULL)`);
    await queryRunner.query(`INSERT INTO "billing_grants"("uid", "granted_at") SELECT "uid", "granted_at" FROM "temporary_billing_grants"`);
    await queryRunner.query(`DROP TABLE "temporary_billing_grants"`);
    await queryRunner.query(`DROP INDEX "IDX_billing_subscriptions_uid"`);
    await queryRunner.query(`ALTER TABLE "billing_subscriptions" RENAME TO "temporary_billing_subscriptions"`);
    await queryRunner.query(`CREATE TABLE "billing_subscriptions" ("id" varchar(255) PRIMARY KEY NOT NULL, "uid" varchar(36) NOT NULL, "customer_id" varchar(255) NOT NULL, "status" varchar(32) NOT NULL, "price_id" varchar(255), "role" varchar(32), "current_period_end" bigint, "cancel_at_period_end" boolean NOT NULL, "past_due_since" bigint, "synced_at" bigint NOT NULL)`);
    await queryRunner.query(`INSERT INTO "billing_subscriptions"("id", "uid", "customer_id", "status", "price_id", "role", "current_period_end", "cancel_at_period_end", "past_due_since", "synced_at") SELECT "id", "uid", "customer_id", "status", "price_id", "role", "current_period_end", "cancel_at_period_end", "past_due_since", "synced_at" FROM "temporary_billing_subscriptions"`);
    await queryRunner.query(`DROP TABLE "temporary_billing_subscriptions"`);
    await queryRunner.query(`CREATE INDEX "IDX_billing_subscriptions_uid" ON "billing_subscriptions" ("uid") `);
    await queryRunner.query(`DROP INDEX "UQ_billing_customers_customer"`);
    await queryRunner.query(`ALTER TABLE "billing_customers" RENAME TO "temporary_billing_customers"`);
    await queryRunner.query(`CREATE TABLE "billing_customers" ("uid" varchar(36) PRIMARY KEY NOT NULL, "customer_id" varchar(255) NOT NULL, "created_at" bigint NOT NULL)`);
    await queryRunner.query(`INSERT INTO "billing_customers"("uid", "customer_id", "created_at") SELECT "uid", "customer_id", "created_at" FROM "temporary_billing_customers"`);
    await queryRunner.query(`DROP TABLE "temporary_billing_customers"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_billing_customers_customer" ON "billing_customers" ("customer_id") `);
    await queryRunner.query(`DROP TABLE "billing_pending_claims"`);
    await queryRunner.query(`DROP TABLE "billing_grants"`);
    await queryRunner.query(`DROP TABLE "billing_events"`);
    await queryRunner.query(`DROP INDEX "IDX_billing_subscriptions_uid"`);
    await queryRunner.query(`DROP TABLE "billing_subscriptions"`);
    await queryRunner.query(`DROP INDEX "IDX_billing_prices_product"`);
    await queryRunner.query(`DROP TABLE "billing_prices"`);
    await queryRunner.query(`DROP TABLE "billing_products"`);
    await queryRunner.query(`DROP INDEX "UQ_billing_customers_customer"`);
    await queryRunner.query(`DROP TABLE "billing_customers"`);
  }
}
