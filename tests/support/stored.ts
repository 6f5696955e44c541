// What the database holds, read by a connection of the test's own (another process's view of the
// file, or another PostgreSQL session), for comparing with what a client saw acknowledged.
import Database from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../../server/src/config.js';

export interface Stored {
  /** Each member's bio, by uid. */
  bios: Map<string, string>;
  /** Each link's title, by id. */
  titles: Map<string, string>;
  /** Emails with an identity account. */
  accounts: Set<string>;
  /** Emails with an identity account, a user record and a profile. */
  members: Set<string>;
  /** Emails of identity accounts missing a user record or a profile (F4 says none, once reconciled). */
  orphans: string[];
  /** Clicks counted over all links. */
  clicks: number;
}

const QUERIES = {
  bios: 'SELECT uid, bio FROM profiles',
  titles: 'SELECT id, title FROM links',
  accounts: 'SELECT email FROM auth_users',
  members: 'SELECT a.email AS email FROM auth_users a JOIN users u ON u.uid = a.id JOIN profiles p ON p.uid = a.id',
  clicks: 'SELECT COALESCE(SUM(clicks), 0) AS clicks FROM link_click_days',
} as const;

type Rows = Record<keyof typeof QUERIES, Record<string, unknown>[]>;

async function readRows(database: Config['database']): Promise<Rows> {
  const rows = {} as Rows;
  const names = Object.keys(QUERIES) as (keyof typeof QUERIES)[];
  if (database.type === 'sqlite') {
    const db = new Database(database.file, { timeout: 5000 });
    try {
      // The whole picture from one snapshot.
      db.transaction(() => {
        for (const name of names) rows[name] = db.prepare(QUERIES[name]).all() as Record<string, unknown>[];
      })();
      const [check] = db.pragma('integrity_check') as { integrity_check: string }[];
      if (check?.integrity_check !== 'ok') throw new Error(`the SQLite file is damaged: ${JSON.stringify(check)}`);
    } finally {
      db.close();
    }
    return rows;
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    for (const name of names) rows[name] = (await client.query(QUERIES[name])).rows as Record<string, unknown>[];
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
  return rows;
}

/** Reads what the database holds now. */
export async function readStored(database: Config['database']): Promise<Stored> {
  const rows = await readRows(database);
  const accounts = new Set(rows.accounts.map((row) => String(row.email)));
  const members = new Set(rows.members.map((row) => String(row.email)));
  return {
    bios: new Map(rows.bios.map((row) => [String(row.uid), String(row.bio)])),
    titles: new Map(rows.titles.map((row) => [String(row.id), String(row.title)])),
    accounts,
    members,
    orphans: [...accounts].filter((email) => !members.has(email)),
    clicks: Number(rows.clicks[0]?.clicks ?? 0),
  };
}
