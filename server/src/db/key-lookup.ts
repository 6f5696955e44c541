import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Pool } from 'pg';
import type { DataSource, EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import { namedStatementRunner } from './pg-named-read.js';
import { sqliteReadInTransaction, sqliteReadNow } from './sqlite-serial.js';

type Rows = Record<string, unknown>[];

/**
 * How the lookups read their rows: on SQLite at once when nothing holds the connection
 * (`sqliteReadNow`); on PostgreSQL a one-key lookup (what a request usually batches) as a named
 * statement, parsed, planned and described once per connection (batches of several keys vary in
 * length, so they stay unnamed); otherwise through TypeORM.
 */
function rowsReader(dataSource: DataSource): (sql: string, keys: readonly string[]) => Promise<Rows> {
  const readNow = sqliteReadNow(dataSource);
  const { master: pool, postgres: driver } =
    dataSource.options.type === 'postgres'
      ? (dataSource.driver as unknown as { master?: Pool; postgres?: typeof pg })
      : {};
  const runNamed = pool && driver ? namedStatementRunner(driver, pool) : undefined;
  const names = new Map<string, string>();
  return async (sql, keys) => {
    const now = readNow?.(sql, keys);
    if (now) return now;
    if (runNamed && keys.length === 1) {
      let name = names.get(sql);
      if (name === undefined) {
        name = `lampstand_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
        names.set(sql, name);
      }
      if (dataSource.options.logging) dataSource.logger.logQuery(sql, [...keys]);
      return runNamed<Rows[number]>(name, sql, [...keys]);
    }
    return dataSource.query<Rows>(sql, [...keys]);
  };
}

/** Column types both drivers hand over as they come (strings), when no transformer is set. */
const PLAIN_TYPES: ReadonlySet<unknown> = new Set([String, 'varchar', 'text', 'character varying', 'uuid']);

/**
 * Makes records of `metadata` from rows whose values are under `prefix` + column name: a plain text
 * column is copied as it is, every other one goes through TypeORM's own conversion and
 * transformers, decided once per column rather than for every value of every row (hydration was
 * ~4% of a public read's CPU, most of it asking each column's type of the driver again).
 */
function hydrator(
  dataSource: DataSource,
  metadata: EntityMetadata,
  columns: readonly ColumnMetadata[],
  prefix = '',
): (row: Record<string, unknown>) => ObjectLiteral {
  const { driver } = dataSource;
  const plans = columns.map((column) => ({
    column,
    name: `${prefix}${column.databaseName}`,
    plain:
      PLAIN_TYPES.has(column.type) &&
      column.transformer === undefined &&
      column.embeddedMetadata === undefined &&
      !column.isVirtual,
  }));
  return (row) => {
    const record = metadata.create() as ObjectLiteral;
    for (const { column, name, plain } of plans) {
      const value = row[name];
      if (plain) (record as Record<string, unknown>)[column.propertyName] = value;
      else column.setEntityValue(record, driver.prepareHydratedValue(value, column));
    }
    return record;
  };
}

/** Records of `entity` from rows that name every one of its columns, converted as `keyLookup`'s are. */
export function recordHydrator<T extends ObjectLiteral>(
  dataSource: DataSource,
  entity: EntityTarget<T>,
): (row: Record<string, unknown>) => T {
  const metadata = dataSource.getMetadata(entity);
  return hydrator(dataSource, metadata, metadata.columns) as (row: Record<string, unknown>) => T;
}

/**
 * The statement `from` + `(?, ?, …)` for a number of keys; the one-key statement (what a request
 * usually batches) is written once rather than at every read.
 */
function statementFor(from: string, placeholder: (index: number) => string, after = ''): (count: number) => string {
  const written = (count: number) =>
    `${from}(${Array.from({ length: count }, (_key, index) => placeholder(index)).join(', ')})${after}`;
  const one = written(1);
  return (count) => (count === 1 ? one : written(count));
}

type Lookup = (keys: readonly string[], manager?: EntityManager) => Promise<ObjectLiteral[]>;

/** Lookups are built once per data source, entity and key, though loaders are made per request. */
const built = new WeakMap<DataSource, Map<string, Lookup>>();

/**
 * A reader of whole records by one key column, for DataLoaders on the hottest paths: the SELECT is
 * written once (and read as `rowsReader` says), and rows are hydrated through TypeORM's own column conversions and transformers,
 * skipping the query builder that `findBy` runs on every call (a fifth of the CPU of a public
 * profile read when profiled).
 *
 * Given the `manager` of a transaction, the lookup reads inside it (on SQLite the only connection
 * is the transaction's until it ends, and the read runs on it at once: `sqliteReadInTransaction`).
 */
export function keyLookup<T extends ObjectLiteral>(
  dataSource: DataSource,
  entity: EntityTarget<T>,
  keyProperty: keyof T & string,
  /** Only these properties are read (the rest stay unset): a large column left out of a hot read. */
  only?: readonly (keyof T & string)[],
  /** Rows come in this property's ascending order (`ORDER BY`); in no particular order without it. */
  orderBy?: keyof T & string,
): (keys: readonly string[], manager?: EntityManager) => Promise<T[]> {
  const metadata = dataSource.getMetadata(entity);
  const cache = built.get(dataSource) ?? new Map<string, Lookup>();
  built.set(dataSource, cache);
  const name = `${metadata.name}.${keyProperty}${only ? `:${only.join(',')}` : ''}${orderBy ? `^${orderBy}` : ''}`;
  const existing = cache.get(name);
  if (existing) return existing as (keys: readonly string[], manager?: EntityManager) => Promise<T[]>;
  const key = metadata.findColumnWithPropertyName(keyProperty);
  if (!key) throw new Error(`${metadata.name} has no column ${keyProperty}`);
  const { driver } = dataSource;
  const columns = only
    ? only.map((property) => {
        const column = metadata.findColumnWithPropertyName(property);
        if (!column) throw new Error(`${metadata.name} has no column ${property}`);
        return column;
      })
    : metadata.columns;
  const select = columns.map((column) => driver.escape(column.databaseName)).join(', ');
  const from = `SELECT ${select} FROM ${driver.escape(metadata.tableName)} WHERE ${driver.escape(key.databaseName)} IN `;
  const placeholder = dataSource.options.type === 'postgres' ? (index: number) => `$${index + 1}` : () => '?';
  const read = rowsReader(dataSource);
  const readInTransaction = sqliteReadInTransaction(dataSource);
  const hydrate = hydrator(dataSource, metadata, columns);
  const order = orderBy === undefined ? undefined : metadata.findColumnWithPropertyName(orderBy);
  if (orderBy !== undefined && !order) throw new Error(`${metadata.name} has no column ${orderBy}`);
  const statement = statementFor(from, placeholder, order ? ` ORDER BY ${driver.escape(order.databaseName)} ASC` : '');
  const lookup = async (keys: readonly string[], manager?: EntityManager): Promise<T[]> => {
    const sql = statement(keys.length);
    const rows = manager?.queryRunner
      ? (readInTransaction?.(sql, keys) ?? (await manager.query<Rows>(sql, [...keys])))
      : await read(sql, keys);
    return rows.map((row) => hydrate(row) as T);
  };
  cache.set(name, lookup);
  return lookup;
}

/** Reads one entity's rows, joined with another's, in one statement (`JoinedLookup`). */
type JoinedLookup = (keys: readonly string[]) => Promise<[ObjectLiteral, ObjectLiteral | null][]>;

const builtJoins = new WeakMap<DataSource, Map<string, JoinedLookup>>();

/**
 * Like `keyLookup`, with each row's record of another entity read in the same statement (a LEFT
 * JOIN of `joined` on `on`): one statement where a record and, say, its owner would take two.
 */
export function joinedKeyLookup<T extends ObjectLiteral, J extends ObjectLiteral>(
  dataSource: DataSource,
  entity: EntityTarget<T>,
  keyProperty: keyof T & string,
  joined: { entity: EntityTarget<J>; on: [keyof T & string, keyof J & string] },
): (keys: readonly string[]) => Promise<[T, J | null][]> {
  const metadata = dataSource.getMetadata(entity);
  const joinedMetadata = dataSource.getMetadata(joined.entity);
  const cache = builtJoins.get(dataSource) ?? new Map<string, JoinedLookup>();
  builtJoins.set(dataSource, cache);
  const name = `${metadata.name}.${keyProperty}+${joinedMetadata.name}`;
  const existing = cache.get(name);
  if (existing) return existing as (keys: readonly string[]) => Promise<[T, J | null][]>;
  const column = (owner: typeof metadata, property: string) => {
    const found = owner.findColumnWithPropertyName(property);
    if (!found) throw new Error(`${owner.name} has no column ${property}`);
    return found;
  };
  const { driver } = dataSource;
  const q = (identifier: string): string => driver.escape(identifier);
  const [localKey, foreignKey] = [column(metadata, joined.on[0]), column(joinedMetadata, joined.on[1])];
  const select = [
    ...metadata.columns.map((c) => `a.${q(c.databaseName)} AS ${q(`a_${c.databaseName}`)}`),
    ...joinedMetadata.columns.map((c) => `b.${q(c.databaseName)} AS ${q(`b_${c.databaseName}`)}`),
  ].join(', ');
  const from =
    `SELECT ${select} FROM ${q(metadata.tableName)} a LEFT JOIN ${q(joinedMetadata.tableName)} b ` +
    `ON b.${q(foreignKey.databaseName)} = a.${q(localKey.databaseName)} ` +
    `WHERE a.${q(column(metadata, keyProperty).databaseName)} IN `;
  const placeholder = dataSource.options.type === 'postgres' ? (index: number) => `$${index + 1}` : () => '?';
  const hydrateOwn = hydrator(dataSource, metadata, metadata.columns, 'a_');
  const hydrateJoined = hydrator(dataSource, joinedMetadata, joinedMetadata.columns, 'b_');
  const read = rowsReader(dataSource);
  const statement = statementFor(from, placeholder);
  const lookup = async (keys: readonly string[]): Promise<[T, J | null][]> => {
    const sql = statement(keys.length);
    const rows = await read(sql, keys);
    return rows.map((row) => [
      hydrateOwn(row) as T,
      row[`b_${foreignKey.databaseName}`] == null ? null : (hydrateJoined(row) as J),
    ]);
  };
  cache.set(name, lookup);
  return lookup;
}
