// `npm run admin -- backup DIR` and `restore DIR [--force]`: file work on the configured database,
// done without starting the app (a restore must not run beside a server on the same files). They
// change no account, so they write no audit row; the backup's manifest records when and what.
import path from 'node:path';
import { ConfigError, loadConfig } from '../config.js';
import { readBuildInfo } from '../observability/build-info.js';
import { backupPostgres, backupSqlite, BackupError } from '../operator/backup.js';
import { restoreSqlite } from '../operator/restore.js';

const PG_RESTORE_HINT =
  'On PostgreSQL, restore with its own tools into an empty database, as the README\'s "Backups" says: ' +
  'pg_restore --no-owner --dbname="$DATABASE_URL" lampstand.pgdump, then start the app (it migrates forward).';

/** Runs `backup` or `restore` on `dir`; the exit code: 0 done, 1 refused or failed (with `CODE: message`). */
export async function runFileCommand(name: 'backup' | 'restore', dir: string, force: boolean): Promise<number> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return 1;
  }
  const folder = path.resolve(dir);
  try {
    if (name === 'backup') {
      if (config.database.type === 'postgres') {
        const { file } = backupPostgres(config, folder);
        console.log(`PostgreSQL dumped to ${file} (pg_dump's custom format; pg_restore reads it back).`);
        return 0;
      }
      const manifest = await backupSqlite(config, readBuildInfo(), folder);
      const secrets = Object.keys(manifest.files).length - 1;
      console.log(
        `backed up to ${folder}: the database (${String(manifest.migrations)} migrations, integrity ok) and ${String(secrets)} data-folder file(s).`,
      );
      return 0;
    }
    if (config.database.type === 'postgres') throw new BackupError('USE_PG_RESTORE', PG_RESTORE_HINT);
    const manifest = restoreSqlite(config, folder, { force });
    console.log(
      `restored ${config.database.file} from the backup of ${manifest.createdAt} (release ${manifest.version}); start the server: it migrates forward.`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    console.error(`${error.code}: ${error.message}`);
    return 1;
  }
}
