import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import type { BackupManifest } from './backup.js';
import { BACKUP_DATA_DIR, BACKUP_DATABASE, BACKUP_MANIFEST, BackupError, checkSqlite, sha256 } from './backup.js';

/** Reads and checks a backup folder: its manifest, every file's SHA-256, and the database's integrity. */
export function verifyBackup(dir: string): BackupManifest {
  let manifest: Partial<BackupManifest> | null;
  try {
    manifest = JSON.parse(readFileSync(path.join(dir, BACKUP_MANIFEST), 'utf8')) as Partial<BackupManifest> | null;
  } catch {
    throw new BackupError('NOT_A_BACKUP', `${dir} holds no readable ${BACKUP_MANIFEST}: it is no finished backup`);
  }
  if (manifest?.format !== 1 || manifest.database !== 'sqlite' || !(manifest.files instanceof Object)) {
    throw new BackupError('NOT_A_BACKUP', `${dir}/${BACKUP_MANIFEST} is not a SQLite backup's manifest`);
  }
  for (const [name, hash] of Object.entries(manifest.files)) {
    const file = path.join(dir, name);
    if (path.relative(dir, file).startsWith('..') || !existsSync(file) || sha256(file) !== hash) {
      throw new BackupError('BACKUP_DAMAGED', `${name} is missing or changed since the backup was made`);
    }
  }
  checkSqlite(path.join(dir, BACKUP_DATABASE), { readonly: true });
  return manifest as BackupManifest;
}

/**
 * Restores a verified backup over the configured SQLite database and data folder. It refuses
 * (RESTORE_TARGET_IN_USE) while the database has a WAL beside it, as it has while a server runs
 * (or after one stopped uncleanly), and (RESTORE_TARGET_NOT_EMPTY) to replace a database that has
 * data, unless `force`. The copy is put in place by a rename, so a failure leaves the old one.
 */
export function restoreSqlite(config: Config, dir: string, options: { force: boolean }): BackupManifest {
  if (config.database.type !== 'sqlite') throw new Error('restoreSqlite needs a SQLite configuration');
  const manifest = verifyBackup(dir);
  const target = config.database.file;
  const beside = ['-wal', '-shm', '-journal'].map((suffix) => `${target}${suffix}`).filter((file) => existsSync(file));
  if (!options.force && beside.length > 0) {
    throw new BackupError(
      'RESTORE_TARGET_IN_USE',
      `${target} has ${beside.map((file) => path.basename(file)).join(', ')} beside it: a server may be running on it. ` +
        'Stop it first (or, if none runs, add --force)',
    );
  }
  if (!options.force && existsSync(target) && statSync(target).size > 0) {
    throw new BackupError('RESTORE_TARGET_NOT_EMPTY', `${target} already holds a database: add --force to replace it`);
  }
  mkdirSync(path.dirname(target), { recursive: true });
  const incoming = `${target}.restoring`;
  copyFileSync(path.join(dir, BACKUP_DATABASE), incoming);
  for (const file of beside) rmSync(file, { force: true });
  renameSync(incoming, target);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  for (const name of Object.keys(manifest.files)) {
    if (!name.startsWith(`${BACKUP_DATA_DIR}/`)) continue;
    const file = path.join(config.dataDir, path.basename(name));
    copyFileSync(path.join(dir, name), file);
    chmodSync(file, 0o600);
  }
  return manifest;
}
