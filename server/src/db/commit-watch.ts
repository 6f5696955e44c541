import type { DataSource, QueryRunner } from 'typeorm';
import { memberRowsChanging } from './member-rows.js';

/** Statements that change no table: reads, transaction control, session settings. */
const QUIET =
  /^\s*(SELECT|PRAGMA|SHOW|SET|RESET|BEGIN|START\s+TRANSACTION|SAVEPOINT|RELEASE|ROLLBACK|EXPLAIN|LISTEN|UNLISTEN|NOTIFY)\b/i;
const COMMIT = /^\s*(COMMIT|END)\b/i;
/** A ROLLBACK of the whole transaction (not `ROLLBACK TO SAVEPOINT`). */
const ROLLBACK = /^\s*ROLLBACK\s*(TRANSACTION\s*)?;?\s*$/i;
/** The table an INSERT, UPDATE or DELETE writes to. */
const TARGET =
  /^\s*(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+"?([\w.]+?)"?[\s(]/i;

export interface CommitWatchOptions {
  /**
   * Tables whose changes nobody watching cares about (counters, sessions, job leases): a statement
   * writing only to one of these is not reported. Any other statement that may change data is.
   */
  ignoredTables: ReadonlySet<string>;
  /**
   * Tables of members' rows (a member's uid names all of theirs): a write to one of these made
   * inside `changingMemberRows` (db/member-rows.ts) is reported as a change to those members' rows
   * alone. Every other watched write is a change to everything.
   */
  memberTables?: ReadonlySet<string>;
  /**
   * Called when data may have changed: after each watched write (in a transaction too: SQLite's
   * one runner cannot always tell which transaction a statement belonged to), and again after the
   * COMMIT or ROLLBACK of a transaction that wrote (what was read meanwhile may be stale or never
   * committed), with the members whose rows changed, or undefined when anything may have. The
   * statement's caller waits for it.
   */
  onChange: (members?: ReadonlySet<string>) => void;
  /**
   * Announces a change (to `members`' rows, or to anything when undefined) to other processes: run
   * inside a transaction that wrote, just before its COMMIT (on PostgreSQL a NOTIFY, delivered only
   * if the transaction commits; its failure fails the transaction), and after a write outside one.
   */
  announce?: (run: (sql: string) => Promise<unknown>, members?: ReadonlySet<string>) => Promise<void>;
  /** A write outside a transaction committed, but announcing it failed. */
  onAnnounceFailed?: (error: unknown) => void;
}

/** Whether `sql` may change data that watchers care about. */
export function changesWatchedData(sql: string, ignoredTables: ReadonlySet<string>): boolean {
  if (QUIET.test(sql) || COMMIT.test(sql)) return false;
  const table = TARGET.exec(sql)?.[1];
  return table === undefined || !ignoredTables.has(table.toLowerCase());
}

/** The members whose rows a watched write changes, when declared and its table is theirs; else undefined. */
function membersWritten(sql: string, memberTables: ReadonlySet<string> | undefined): ReadonlySet<string> | undefined {
  const uids = memberRowsChanging();
  if (uids === undefined || memberTables === undefined) return undefined;
  const table = TARGET.exec(sql)?.[1]?.toLowerCase();
  return table !== undefined && memberTables.has(table) ? new Set(uids) : undefined;
}

type Query = (sql: string, ...rest: unknown[]) => Promise<unknown>;

/**
 * Reports every change made through `dataSource`: each query runner's `query` is wrapped (the one
 * runner of a SQLite data source, and each runner a PostgreSQL data source makes), so raw SQL, the
 * query builder and repositories are all seen. A statement that fails reports nothing.
 */
export function watchCommits(dataSource: DataSource, options: CommitWatchOptions): void {
  const { driver } = dataSource;
  const wrapped = new WeakSet<QueryRunner>();
  const wrap = (runner: QueryRunner): QueryRunner => {
    if (wrapped.has(runner)) return runner;
    wrapped.add(runner);
    const query = runner.query.bind(runner) as Query;
    const run = (sql: string) => query(sql);
    // What the open transaction changed: nothing yet, some members' rows, or anything.
    let wrote: Set<string> | 'anything' | undefined;
    const taken = (): ReadonlySet<string> | undefined => {
      const members = wrote === 'anything' ? undefined : wrote;
      wrote = undefined;
      return members;
    };
    (runner as { query: Query }).query = async (sql, ...rest) => {
      if (COMMIT.test(sql) && wrote !== undefined) {
        const members = taken();
        await options.announce?.(run, members);
        const result = await query(sql, ...rest);
        options.onChange(members);
        return result;
      }
      const result = await query(sql, ...rest);
      if (ROLLBACK.test(sql)) {
        if (wrote !== undefined) options.onChange(taken());
      } else if (changesWatchedData(sql, options.ignoredTables)) {
        const members = membersWritten(sql, options.memberTables);
        options.onChange(members);
        if (runner.isTransactionActive) {
          if (members === undefined || wrote === 'anything') wrote = 'anything';
          else wrote = new Set([...(wrote ?? []), ...members]);
        } else {
          try {
            await options.announce?.(run, members);
          } catch (error) {
            options.onAnnounceFailed?.(error);
          }
        }
      }
      return result;
    };
    return runner;
  };
  const create = driver.createQueryRunner.bind(driver);
  driver.createQueryRunner = (mode) => wrap(create(mode));
}
