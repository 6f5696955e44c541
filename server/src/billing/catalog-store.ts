import type { EntityManager, ObjectLiteral } from 'typeorm';
import { BillingPriceRecord, BillingProductRecord } from './billing.entities.js';
import type { BillingSubscriptionRecord } from './billing.entities.js';
import type { PriceSnapshot, ProductSnapshot } from './stripe.client.js';

/** Stores what Stripe said of a product; false when the row already holds a later read. */
export async function saveProduct(manager: EntityManager, product: ProductSnapshot, syncedAt: Date): Promise<boolean> {
  const values = {
    name: product.name,
    description: product.description,
    active: product.active,
    role: product.role,
    syncedAt,
  };
  return saveIfNewer(manager, BillingProductRecord, product.id, values, values);
}

export async function savePrice(manager: EntityManager, price: PriceSnapshot, syncedAt: Date): Promise<void> {
  if (price.product) await saveProduct(manager, price.product, syncedAt);
  const values = {
    productId: price.productId,
    active: price.active,
    currency: price.currency,
    unitAmount: price.unitAmount,
    interval: price.interval,
    intervalCount: price.intervalCount,
    syncedAt,
  };
  await saveIfNewer(manager, BillingPriceRecord, price.id, values, values);
}

/**
 * Writes the state unless the row holds one read from Stripe later than this (so an older read,
 * finishing last, cannot overwrite a newer one). `full` inserts the row first when there is none;
 * a concurrent insert of the same row wins quietly and this state is then compared with it.
 */
export async function saveIfNewer(
  manager: EntityManager,
  entity: typeof BillingProductRecord | typeof BillingPriceRecord | typeof BillingSubscriptionRecord,
  id: string,
  changes: ObjectLiteral & { syncedAt: Date },
  full: ObjectLiteral | null,
): Promise<boolean> {
  if (full !== null) {
    await manager
      .createQueryBuilder()
      .insert()
      .into(entity)
      .values({ id, ...full })
      .orIgnore()
      .execute();
  }
  const result = await manager
    .createQueryBuilder()
    .update(entity)
    .set(changes)
    .where('id = :id AND synced_at <= :syncedAt', { id, syncedAt: changes.syncedAt.getTime() })
    .execute();
  return (result.affected ?? 0) > 0;
}
