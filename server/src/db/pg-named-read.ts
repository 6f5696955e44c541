import type { Connection, FieldDef, Pool, QueryResultRow } from 'pg';
import type pg from 'pg';

/** What a statement's RowDescription gave pg's result: the fields, their parsers and an empty row. */
interface Description {
  fields: FieldDef[];
  parsers: unknown[];
  empty: Record<string, null>;
}

/** The parts of pg's `Result` (lib/result.js) that `addFields` fills from a RowDescription. */
interface ResultInternals {
  fields: FieldDef[];
  _parsers: unknown[] | undefined;
  _prebuiltEmptyResultObject: Record<string, null> | null;
}

/** The parts of pg's `Query` (lib/query.js, pg 8) that a statement described once relies on. */
interface QueryInternals {
  name?: string;
  text: string;
  values: unknown[];
  portal: string;
  binary?: boolean;
  _result: ResultInternals;
  _accumulateRows: boolean;
  hasBeenParsed(connection: Connection): boolean;
  handleError(error: unknown, connection: Connection): void;
  handleRowDescription(message: { fields: FieldDef[] }): void;
  prepare(connection: Connection): void;
  _getRows(connection: Connection, rows?: number): void;
}

/** The parts of pg's `Connection` that a prepared statement's turn writes with. */
interface ConnectionInternals {
  bind(config: { portal: string; statement?: string; values: unknown[]; binary?: boolean; valueMapper: unknown }): void;
  close(message: { type: 'S'; name?: string }): void;
  sync(): void;
}

type QueryClass = new (text: string, values: unknown[]) => QueryInternals;

/** Whether pg's `Query` still has the methods the class below overrides and calls. */
function hasInternals(Query: typeof pg.Query): boolean {
  const prototype = Query.prototype as unknown as Partial<QueryInternals>;
  return (
    typeof prototype.prepare === 'function' &&
    typeof prototype.hasBeenParsed === 'function' &&
    typeof prototype._getRows === 'function' &&
    typeof prototype.handleRowDescription === 'function'
  );
}

/**
 * A pg `Query` for a named statement that asks for the rows' description (Describe) only on its
 * first run on a connection. pg describes the portal at every execution, and its `addFields` then
 * builds the parsers and the empty row again from the 31 columns of the hottest read (5% of a read
 * that misses the kept answers, with the RowDescription's parsing on both sides). A statement's
 * columns cannot change while it stays prepared (PostgreSQL refuses to run it: "cached plan must
 * not change result type"), so the description is kept where pg keeps the statement: per connection.
 */
function describedOnceQuery(Query: QueryClass, valueMapper: unknown): QueryClass {
  const described = new WeakMap<Connection, Map<string, Description>>();
  return class DescribedOnceQuery extends Query {
    private connection: Connection | undefined;

    override prepare(connection: Connection): void {
      const known = this.name === undefined ? undefined : described.get(connection)?.get(this.name);
      if (!known || !this.hasBeenParsed(connection)) {
        this.connection = connection;
        super.prepare(connection);
        return;
      }
      // pg's own prepare (lib/query.js) without the Describe: Bind, Execute, Sync.
      const internals = connection as unknown as ConnectionInternals;
      try {
        internals.bind({
          portal: this.portal,
          statement: this.name,
          values: this.values,
          binary: this.binary,
          valueMapper,
        });
      } catch (error) {
        internals.close({ type: 'S', name: this.name });
        internals.sync();
        this.handleError(error, connection);
        return;
      }
      const result = this._result;
      result.fields = known.fields;
      result._parsers = known.parsers;
      result._prebuiltEmptyResultObject = known.empty;
      this._accumulateRows = true;
      this._getRows(connection);
    }

    override handleRowDescription(message: { fields: FieldDef[] }): void {
      super.handleRowDescription(message);
      const { connection, name } = this;
      const { fields, _parsers: parsers, _prebuiltEmptyResultObject: empty } = this._result;
      if (!connection || name === undefined || !parsers || !empty) return;
      const statements = described.get(connection) ?? new Map<string, Description>();
      described.set(connection, statements);
      statements.set(name, { fields, parsers, empty });
    }
  };
}

/**
 * Runs named statements on `pool`, each described once per connection (`describedOnceQuery`), or
 * as pg runs them when its `Query` is not the one this was written against.
 */
export function namedStatementRunner(
  driver: typeof pg,
  pool: Pool,
): <Row extends QueryResultRow>(name: string, text: string, values: unknown[]) => Promise<Row[]> {
  const { Query } = driver;
  const valueMapper = (driver as unknown as { utils?: { prepareValue?: unknown } }).utils?.prepareValue;
  if (!hasInternals(Query) || typeof valueMapper !== 'function') {
    return async <Row extends QueryResultRow>(name: string, text: string, values: unknown[]) =>
      (await pool.query<Row>({ name, text, values })).rows;
  }
  const DescribedOnce = describedOnceQuery(Query as unknown as QueryClass, valueMapper);
  return async <Row extends QueryResultRow>(name: string, text: string, values: unknown[]) => {
    const query = new DescribedOnce(text, values);
    query.name = name;
    // pg-pool answers a submittable query with a promise of its result, as it does a config.
    return (await (pool.query(query as unknown as pg.Submittable) as unknown as Promise<{ rows: Row[] }>)).rows;
  };
}
