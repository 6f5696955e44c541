import type { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import { recordHydrator } from './key-lookup.js';

// Writes of single rows on the hottest write path (a sign-in), with SQL written once: TypeORM's
// query builders build and escape each statement again on every call, which cost a sign-in more
// than the statements themselves. Values go through TypeORM's own conversions and transformers.

type Insert = (manager: EntityManager, row: ObjectLiteral) => Promise<void>;

/** Built once per data source and entity. */
const built = new WeakMap<DataSource, Map<EntityTarget<ObjectLiteral>, Insert>>();

const placeholders = (dataSource: DataSource): ((index: number) => string) =>
  dataSource.options.type === 'postgres' ? (index) => `$${index + 1}` : () => '?';

function columnsOf(metadata: EntityMetadata, properties: readonly string[]): ColumnMetadata[] {
  return properties.map((property) => {
    const column = metadata.findColumnWithPropertyName(property);
    if (!column) throw new Error(`${metadata.name} has no column ${property}`);
    return column;
  });
}

/**
 * An INSERT of one row of `entity` with the properties it has (the others keep their database
 * defaults), its SQL written once per set of properties, as `manager.insert` writes it. Runs on
 * `manager`, inside its transaction when it has one; no read-back of generated columns, so rows
 * are given their keys.
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
  const placeholder = placeholders(dataSource);
  const statements = new Map<string, string>();
  const insert: Insert = async (manager, row) => {
    const given = insertable
      .map((column) => ({ column, value: column.getEntityValue(row) as unknown }))
      .filter(({ value }) => value !== undefined);
    const columns = given.map(({ column }) => column);
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
      given.map(({ column, value }) => driver.preparePersistentValue(value, column) as unknown),
    );
  };
  cache.set(entity, insert);
  return insert;
}

type Update = (manager: EntityManager, set: ObjectLiteral, where: ObjectLiteral) => Promise<number>;
type UpdateReturning<T> = (manager: EntityManager, set: Partial<T>, where: Partial<T>) => Promise<T[]>;

/** Built once per data source, entity and shape. */
const builtUpdates = new WeakMap<DataSource, Map<string, unknown>>();

interface UpdateShape<T> {
  set: readonly (keyof T & string)[];
  where: readonly (keyof T & string)[];
}

/** The SQL of an update of `shape`, and its values in order from the `set` and `where` given. */
function updateStatement<T extends ObjectLiteral>(
  dataSource: DataSource,
  metadata: EntityMetadata,
  shape: UpdateShape<T>,
): { sql: string; values: (set: ObjectLiteral, where: ObjectLiteral) => unknown[] } {
  const { driver } = dataSource;
  const [setColumns, whereColumns] = [columnsOf(metadata, shape.set), columnsOf(metadata, shape.where)];
  const placeholder = placeholders(dataSource);
  const assignments = setColumns.map(
    (column, index) => `${driver.escape(column.databaseName)} = ${placeholder(index)}`,
  );
  const conditions = whereColumns.map(
    (column, index) => `${driver.escape(column.databaseName)} = ${placeholder(setColumns.length + index)}`,
  );
  const sql = `UPDATE ${driver.escape(metadata.tableName)} SET ${assignments.join(', ')} WHERE ${conditions.join(' AND ')}`;
  return {
    sql,
    values: (set, where) => {
      const values = [
        ...setColumns.map((column) => driver.preparePersistentValue(column.getEntityValue(set), column) as unknown),
        ...whereColumns.map((column) => driver.preparePersistentValue(column.getEntityValue(where), column) as unknown),
      ];
      if (values.includes(undefined)) throw new Error(`rowUpdate of ${metadata.name} needs every value of its shape`);
      return values;
    },
  };
}

/** The runner of `manager`'s transaction: these updates are made inside one. */
function transactionRunner(manager: EntityManager) {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive) throw new Error('rowUpdate runs inside a transaction');
  return runner;
}

/** The cache of `dataSource`'s updates. */
function updatesOf(dataSource: DataSource): Map<string, unknown> {
  const cache = builtUpdates.get(dataSource) ?? new Map<string, unknown>();
  builtUpdates.set(dataSource, cache);
  return cache;
}

/**
 * An UPDATE of `entity`'s rows whose `where` properties equal the values given, setting the `set`
 * properties, as `manager.update` writes it. It runs inside `manager`'s transaction, and answers how
 * many rows it changed.
 */
export function rowUpdate<T extends ObjectLiteral>(
  dataSource: DataSource,
  entity: EntityTarget<T>,
  shape: UpdateShape<T>,
): (manager: EntityManager, set: Partial<T>, where: Partial<T>) => Promise<number> {
  const metadata = dataSource.getMetadata(entity);
  const name = `${metadata.name}:${shape.set.join(',')}:${shape.where.join(',')}`;
  const cache = updatesOf(dataSource);
  const existing = cache.get(name);
  if (existing) return existing as Update;
  const { sql, values } = updateStatement(dataSource, metadata, shape);
  const update: Update = async (manager, set, where) => {
    const result = await transactionRunner(manager).query(sql, values(set, where), true);
    return result.affected ?? 0;
  };
  cache.set(name, update);
  return update;
}

/**
 * `rowUpdate`, answering the rows it changed as they are after it (`RETURNING`, on SQLite and
 * PostgreSQL alike): one statement where the update and a read of its rows would be two.
 */
export function rowUpdateReturning<T extends ObjectLiteral>(
  dataSource: DataSource,
  entity: EntityTarget<T>,
  shape: UpdateShape<T>,
): UpdateReturning<T> {
  const metadata = dataSource.getMetadata(entity);
  const name = `${metadata.name}:${shape.set.join(',')}:${shape.where.join(',')}:returning`;
  const cache = updatesOf(dataSource);
  const existing = cache.get(name);
  if (existing) return existing as UpdateReturning<T>;
  const { driver } = dataSource;
  const statement = updateStatement(dataSource, metadata, shape);
  const returning = metadata.columns.map((column) => driver.escape(column.databaseName)).join(', ');
  const sql = `${statement.sql} RETURNING ${returning}`;
  const hydrate = recordHydrator(dataSource, entity);
  const update: UpdateReturning<T> = async (manager, set, where) => {
    const result = await transactionRunner(manager).query(sql, statement.values(set, where), true);
    return (result.records as Record<string, unknown>[]).map(hydrate);
  };
  cache.set(name, update);
  return update;
}
