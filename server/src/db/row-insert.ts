import type { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

type Insert = (manager: EntityManager, row: ObjectLiteral) => Promise<void>;

/** Built once per data source and entity. */
const built = new WeakMap<DataSource, Map<EntityTarget<ObjectLiteral>, Insert>>();

/**
 * An INSERT of one row of `entity` with the properties it has (the others keep their database
 * defaults), its SQL written once per set of properties. Values go through TypeORM's own
 * conversions and transformers, as `manager.insert` does, without the insert query builder it
 * runs on every call (a sign-in inserts two rows). Runs on `manager`, inside its transaction when
 * it has one; no read-back of generated columns, so rows are given their keys.
 */
export function rowInsert<T extends ObjectLiteral>(
  dataSource: DataSource,
  entity: EntityTarget<T>,
): (manager: EntityManager, row: T) => Promise<void> {
  const cache = built.get(dataSource) ?? new Map<EntityTarget<ObjectLiteral>, Insert>();
  built.set(dataSource, cache);
  const existing = cache.get(entity);
  if (existing) return existing;
  const metadata = dataSource.getMetadata(entity);
  const { driver } = dataSource;
  const insertable = metadata.columns.filter((column) => column.isInsert);
  const placeholder = dataSource.options.type === 'postgres' ? (index: number) => `$${index + 1}` : () => '?';
  const statements = new Map<string, string>();
  const insert: Insert = async (manager, row) => {
    const columns = insertable.filter((column) => column.getEntityValue(row) !== undefined);
    const key = columns.map((column) => column.propertyPath).join(',');
    let sql = statements.get(key);
    if (sql === undefined) {
      const names = columns.map((column) => driver.escape(column.databaseName)).join(', ');
      const values = columns.map((_column, index) => placeholder(index)).join(', ');
      sql = `INSERT INTO ${driver.escape(metadata.tableName)} (${names}) VALUES (${values})`;
      statements.set(key, sql);
    }
    await manager.query(
      sql,
      columns.map((column) => driver.preparePersistentValue(column.getEntityValue(row), column) as unknown),
    );
  };
  cache.set(entity, insert);
  return insert;
}
