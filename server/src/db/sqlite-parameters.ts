import type { DataSource } from 'typeorm';

type Escape = (sql: string, parameters: Record<string, unknown> | undefined) => [string, unknown[]];

/**
 * Binds the whole-number parameters of TypeORM's query builders on SQLite instead of writing them
 * into the SQL. TypeORM's SQLite driver puts every number into the statement's text, so every write
 * of a timestamp (stored as epoch milliseconds) was a statement never seen before: prepared again
 * each time, and pushing the hot statements out of TypeORM's statement cache (a first-in,
 * first-out list of 100), which then prepared those again too. A sign-in prepared most of its
 * statements anew.
 *
 * A whole number is handed to better-sqlite3 as a BigInt, which it binds as an INTEGER: the value
 * SQLite read from the number written into the text before. Fractions keep TypeORM's own handling.
 */
export function bindSqliteWholeNumbers(dataSource: DataSource): void {
  const driver = dataSource.driver as unknown as { escapeQueryWithParameters: Escape };
  const escape = driver.escapeQueryWithParameters.bind(driver);
  driver.escapeQueryWithParameters = (sql, parameters) => {
    if (!parameters || !Object.values(parameters).some((value) => Number.isSafeInteger(value))) {
      return escape(sql, parameters);
    }
    const bound: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(parameters)) {
      bound[name] = typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value;
    }
    return escape(sql, bound);
  };
}
