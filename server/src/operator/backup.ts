import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Config } from '../config.js';
import type { BuildInfo } from '../observability/build-info.js';

/** The name of the backup's database copy, its data-folder files' folder and its manifest, inside DIR. */
export const BACKUP_DATABASE = 'lampstand.sqlite';
export const BACKUP_DATA_DIR = 'data';
export const BACKUP_MANIFEST = 'manifest.json';

/** What a backup holds, written last: a folder without it is no (finished) backup. */
export interface BackupManifest {
  format: 1;
  createdAt: string;
  version: string;
  commit: string | null;
  database: 'sqlite';
  /** Applied migrations: the release that restores it must know at least as many. */
  migrations: number;
  /** Every file of the backup by its path inside DIR, with its SHA-256. */
  files: Record<string, string>;
}

/** A backup or restore refused or failed, with a stable code (printed as `CODE: message`). */
export class BackupError extends Error {
  override name = 'BackupError';

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** `PRAGMA integrity_check` of a SQLite file, and its applied migrations; BACKUP_DAMAGED when it is not sound. */
export function checkSqlite(file: string, options: { readonly: boolean }): number {
  const db = new Database(file, { readonly: options.readonly, fileMustExist: true });
  try {
    const rows = db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[];
    const problems = rows.map((row) => row.integrity_check).filter((line) => line !== 'ok');
    if (problems.length > 0) {
      throw new BackupError('BACKUP_DAMAGED', `${file} fails SQLite's integrity check: ${problems.join('; ')}`);
    }
    return (db.prepare('SELECT count(*) AS n FROM migrations').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The files of the data folder beside the database (its secrets: development keys), by name. */
export function dataDirFiles(config: Config, database: string | undefined): string[] {
  if (!existsSync(config.dataDir)) return [];
  const own = database === undefined ? undefined : path.resolve(database);
  return readdirSync(config.dataDir).filter((name) => {
    const file = path.join(config.dataDir, name);
    if (own !== undefined && (file === own || file.startsWith(`${own}-`))) return false;
    return statSync(file).isFile();
  });
}

function emptyTarget(dir: string): void {
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new BackupError('BACKUP_DIR_NOT_EMPTY', `${dir} is not empty: back up into a new or empty folder`);
  }
  mkdirSync(path.join(dir, BACKUP_DATA_DIR), { recursive: true, mode: 0o700 });
}

/**
 * Backs the SQLite database up into `dir` while the server may be running (SQLite's online backup,
 * through better-sqlite3), with the data folder's secrets, checks the copy with
 * `PRAGMA integrity_check`, and writes the manifest last.
 */
export async function backupSqlite(config: Config, build: BuildInfo, dir: string): Promise<BackupManifest> {
  if (config.database.type !== 'sqlite') throw new Error('backupSqlite needs a SQLite configuration');
  const source = config.database.file;
  if (!existsSync(source)) throw new BackupError('NO_DATABASE', `there is no database at ${source}`);
  emptyTarget(dir);
  const copy = path.join(dir, BACKUP_DATABASE);
  const db = new Database(source, { fileMustExist: true });
  try {
    await db.backup(copy);
  } finally {
    db.close();
  }
  // One self-contained file: a rollback journal, so that opening it read-only leaves nothing beside it.
  const single = new Database(copy);
  single.pragma('journal_mode = DELETE');
  single.close();
  const migrations = checkSqlite(copy, { readonly: true });

  const files: Record<string, string> = { [BACKUP_DATABASE]: sha256(copy) };
  for (const name of dataDirFiles(config, source)) {
    const target = path.join(dir, BACKUP_DATA_DIR, name);
    copyFileSync(path.join(config.dataDir, name), target);
    files[`${BACKUP_DATA_DIR}/${name}`] = sha256(target);
  }
  const manifest: BackupManifest = {
    format: 1,
    createdAt: new Date().toISOString(),
    version: build.version,
    commit: build.commit,
    database: 'sqlite',
    migrations,
    files,
  };
  writeFileSync(path.join(dir, BACKUP_MANIFEST), JSON.stringify(manifest, null, 2) + '\n', { mode: 0o600 });
  return manifest;
}

/** What `backup` does on PostgreSQL: pg_dump's custom format of the whole database, read back by pg_restore. */
export const PG_DUMP_FILE = 'lampstand.pgdump';

/**
 * Runs `pg_dump` into `dir` (the whole database: the app's tables and, in the compose deployment,
 * Supabase Auth's `auth` schema), lists the dump with `pg_restore --list` to check it reads, and
 * copies the data folder's files beside it.
 * Without pg_dump on the PATH, PG_DUMP_MISSING explains what to run instead.
 */
export function backupPostgres(config: Config, dir: string): { file: string } {
  if (config.database.type !== 'postgres') throw new Error('backupPostgres needs a PostgreSQL configuration');
  const found = spawnSync('pg_dump', ['--version'], { encoding: 'utf8' });
  if (found.error !== undefined || found.status !== 0) {
    throw new BackupError(
      'PG_DUMP_MISSING',
      'pg_dump is not on the PATH. Back PostgreSQL up with its own tools, as the README\'s "Backups" says: ' +
        'pg_dump --format=custom --file=lampstand.pgdump "$DATABASE_URL" (in the compose deployment: ' +
        'docker compose exec postgres pg_dump -U postgres --format=custom lampstand > lampstand.pgdump)',
    );
  }
  emptyTarget(dir);
  const file = path.join(dir, PG_DUMP_FILE);
  const dumped = spawnSync('pg_dump', ['--format=custom', `--file=${file}`, `--dbname=${config.database.url}`], {
    encoding: 'utf8',
  });
  if (dumped.status !== 0) throw new BackupError('BACKUP_FAILED', `pg_dump failed: ${dumped.stderr.trim()}`);
  const listed = spawnSync('pg_restore', ['--list', file], { encoding: 'utf8' });
  if (listed.status !== 0)
    throw new BackupError('BACKUP_DAMAGED', `pg_restore cannot read the dump: ${listed.stderr.trim()}`);
  // The data folder's secrets (development keys, when the embedded identity service made them).
  for (const name of dataDirFiles(config, undefined)) {
    copyFileSync(path.join(config.dataDir, name), path.join(dir, BACKUP_DATA_DIR, name));
  }
  return { file };
}
