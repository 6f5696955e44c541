import type { DataSource, EntityManager } from 'typeorm';

const queues = new WeakMap<DataSource, Promise<unknown>>();

/**
 * `dataSource.transaction`, except that on SQLite the transactions passed here run one after
 * another. TypeORM runs every SQLite transaction on its one connection, so two concurrent ones
 * would nest as savepoints, and a rollback of one could undo the other's committed work.
 */
export function serialTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  if (dataSource.options.type !== 'better-sqlite3') return dataSource.transaction(work);
  const run = (queues.get(dataSource) ?? Promise.resolve()).then(() => dataSource.transaction(work));
  queues.set(
    dataSource,
    run.catch(() => undefined),
  );
  return run;
}
