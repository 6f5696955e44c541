// `npm run admin -- --help`, `audit`, `backup` and `restore`, each run as its own process.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AuditRecord } from '../../server/src/moderation/moderation.entities.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { CliOutcome } from '../support/cli.js';
import { runCli } from '../support/cli.js';
import { signUpMember } from '../support/members.js';
import '../support/provided.js';

let api: TestApp;
const work = mkdtempSync(path.join(tmpdir(), 'lampstand-backup-'));

beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => {
  await api.close();
  rmSync(work, { recursive: true, force: true });
});

const admin = (...args: string[]): Promise<CliOutcome> => runCli(api, 'admin', args);

/** The admin command against another SQLite file and data folder than the running app's. */
function adminOn(target: { file: string; dataDir: string }, ...args: string[]): Promise<CliOutcome> {
  const config = { ...api.config, database: { type: 'sqlite' as const, file: target.file }, dataDir: target.dataDir };
  return runCli({ ...api, config }, 'admin', args);
}

describe('npm run admin', { timeout: 240_000 }, () => {
  it('prints its usage for --help, and exits 0', async () => {
    const help = await admin('--help');
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('usage: npm run admin -- <command>');
    expect(help.stdout).toMatch(/^ {2}audit /m);
    expect(help.stdout).toMatch(/^ {2}backup DIR/m);
  });

  it('reads the audit log, newest first, within --since and --limit, and audits the reading', async () => {
    const rows = api.dataSource.getRepository(AuditRecord);
    const row = (minutesAgo: number, operator: string) => ({
      id: randomUUID(),
      operator,
      osUser: 'ada',
      host: 'desk',
      outcome: 'refused',
      action: 'show',
      target: 'nobody-here@example.com',
      details: '{"code":"NOT_FOUND"}',
      at: new Date(Date.now() - minutesAgo * 60_000),
    });
    await rows.save([row(120, 'before the window'), row(2, 'older'), row(1, 'ada')]);
    const read = await admin('audit', '--since', '1h', '--limit', '1', '--operator', 'grace');
    expect(read.code, read.stderr).toBe(0);
    const lines = read.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]?.split('\t')).toEqual([
      expect.stringMatching(/^\d{4}-/),
      'refused',
      'ada',
      'ada@desk',
      'show',
      'nobody-here@example.com',
      '{"code":"NOT_FOUND"}',
    ]);
    expect(lines[1]).toBe('1 audit rows, newest first');
    expect(await rows.findBy({ operator: 'grace', action: 'audit' })).toEqual([
      expect.objectContaining({ outcome: 'done', details: expect.stringContaining('"rows":1') as unknown }),
    ]);

    const wrong = await admin('audit', '--since', 'last tuesday');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--since must be');
  });
});

describe('backups', { timeout: 240_000 }, () => {
  it.runIf(inject('dialect') === 'sqlite')(
    'back a running app up, and restore only over a stopped, empty database unless forced',
    async () => {
      const { email } = await signUpMember(api);
      writeFileSync(path.join(api.config.dataDir, 'extra-secret'), 'kept with the backup\n', { mode: 0o600 });
      const backup = path.join(work, 'backup');

      const made = await admin('backup', backup);
      expect(made.code, made.stderr).toBe(0);
      expect(made.stdout).toContain('integrity ok');
      expect(readdirSync(backup).sort()).toEqual(['data', 'lampstand.sqlite', 'manifest.json']);
      expect(readFileSync(path.join(backup, 'data', 'extra-secret'), 'utf8')).toBe('kept with the backup\n');
      const again = await admin('backup', backup);
      expect([again.code, again.stderr]).toEqual([1, expect.stringContaining('BACKUP_DIR_NOT_EMPTY')]);

      // The running app's database has its WAL beside it: a restore there is refused.
      const busy = await admin('restore', backup);
      expect([busy.code, busy.stderr]).toEqual([1, expect.stringContaining('RESTORE_TARGET_IN_USE')]);

      const target = {
        file: path.join(work, 'restored', 'lampstand.sqlite'),
        dataDir: path.join(work, 'restored-data'),
      };
      const restored = await adminOn(target, 'restore', backup);
      expect(restored.code, restored.stderr).toBe(0);
      const db = new Database(target.file, { readonly: true });
      try {
        expect(db.prepare('SELECT count(*) AS n FROM auth_users WHERE email = ?').get(email)).toEqual({ n: 1 });
      } finally {
        db.close();
      }
      expect(readFileSync(path.join(target.dataDir, 'extra-secret'), 'utf8')).toBe('kept with the backup\n');
      for (const suffix of ['-wal', '-shm']) rmSync(`${target.file}${suffix}`, { force: true });

      const over = await adminOn(target, 'restore', backup);
      expect([over.code, over.stderr]).toEqual([1, expect.stringContaining('RESTORE_TARGET_NOT_EMPTY')]);
      expect((await adminOn(target, 'restore', backup, '--force')).code).toBe(0);

      // A backup changed after it was made is refused before anything is touched.
      writeFileSync(path.join(backup, 'data', 'extra-secret'), 'tampered\n');
      rmSync(target.file);
      const damaged = await adminOn(target, 'restore', backup);
      expect([damaged.code, damaged.stderr]).toEqual([1, expect.stringContaining('BACKUP_DAMAGED')]);
      expect(existsSync(target.file)).toBe(false);
    },
  );

  it.runIf(inject('dialect') === 'postgres')('dump PostgreSQL with pg_dump', async () => {
    const dir = path.join(work, 'pg');
    const made = await admin('backup', dir);
    expect(made.code, made.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['data', 'lampstand.pgdump']);
    const restore = await admin('restore', dir);
    expect([restore.code, restore.stderr]).toEqual([1, expect.stringContaining('pg_restore')]);
  });
});
