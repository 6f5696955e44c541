import type { DataSource } from 'typeorm';

/** A daily counter's table: its key columns and the column that counts. */
export interface CounterTable {
  table: string;
  /** The columns of a row besides the count, the conflict key first. */
  columns: readonly string[];
  /** How many of `columns`, from the first, are the conflict key. */
  keyColumns: number;
  count: string;
}

/** One row to add to: its column values (all text) and how much to add. */
interface Pending {
  values: readonly string[];
  add: number;
  settle: { resolve: () => void; reject: (error: unknown) => void }[];
}

/**
 * The statement adding a batch of rows' counts at once, with one text whatever the batch's size (so
 * it is prepared once): on SQLite the rows come as one JSON array, on PostgreSQL as one array a column.
 */
function upsertSql(dataSource: DataSource, { table, columns, keyColumns, count }: CounterTable): string {
  const names = [...columns, count].join(', ');
  const conflict = columns.slice(0, keyColumns).join(', ');
  const update = `ON CONFLICT (${conflict}) DO UPDATE SET ${count} = ${table}.${count} + excluded.${count}`;
  if (dataSource.options.type === 'postgres') {
    const arrays = [...columns.map((_column, index) => `$${index + 1}::varchar[]`), `$${columns.length + 1}::int[]`];
    return `INSERT INTO ${table} (${names}) SELECT * FROM unnest(${arrays.join(', ')}) ${update}`;
  }
  const fields = [...columns, count].map((_column, index) => `json_extract(value, '$[${index}]')`);
  // `WHERE true` tells SQLite's parser that ON CONFLICT is the upsert's, not a join's.
  return `INSERT INTO ${table} (${names}) SELECT ${fields.join(', ')} FROM json_each(?) WHERE true ${update}`;
}

/**
 * Adds to a daily counter (views, clicks) in batches: the counts asked for while the event loop
 * turns once are written by one statement, one commit, when it next checks (`setImmediate`). Each
 * caller still waits until its count is committed, as with a statement of its own. On SQLite with
 * `synchronous = FULL` each commit waits for the disk with the event loop held, so under load one
 * commit for many visits, not one each, is what keeps the loop free (README, Performance: P11).
 */
export class DayCounter {
  private readonly sql: string;
  private readonly postgres: boolean;
  private pending = new Map<string, Pending>();
  private scheduled = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly table: CounterTable,
  ) {
    this.sql = upsertSql(dataSource, table);
    this.postgres = dataSource.options.type === 'postgres';
  }

  /** Adds one to the row of `values` (its columns' values, in `columns`' order); resolves once committed. */
  add(values: readonly string[]): Promise<void> {
    return new Promise((resolve, reject) => {
      const key = values.join('\n');
      const row = this.pending.get(key) ?? { values, add: 0, settle: [] };
      row.add += 1;
      row.settle.push({ resolve, reject });
      this.pending.set(key, row);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const rows = [...this.pending.values()];
    this.pending = new Map();
    try {
      await this.write(rows);
      for (const row of rows) for (const { resolve } of row.settle) resolve();
    } catch (error) {
      if (rows.length === 1) {
        for (const { reject } of rows[0]?.settle ?? []) reject(error);
        return;
      }
      // One bad row (a member deleted meanwhile) fails only its own counts: the rest go one by one.
      for (const row of rows) {
        try {
          await this.write([row]);
          for (const { resolve } of row.settle) resolve();
        } catch (rowError) {
          for (const { reject } of row.settle) reject(rowError);
        }
      }
    }
  }

  private async write(rows: readonly Pending[]): Promise<void> {
    if (this.postgres) {
      const columns = this.table.columns.map((_column, index) => rows.map((row) => row.values[index]));
      await this.dataSource.query(this.sql, [...columns, rows.map((row) => row.add)]);
      return;
    }
    await this.dataSource.query(this.sql, [JSON.stringify(rows.map((row) => [...row.values, row.add]))]);
  }
}
