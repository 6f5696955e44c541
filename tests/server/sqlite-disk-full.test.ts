// F9: the disk fills up under a write load (SQLite), then is freed. A file-size limit on the server
// process (RLIMIT_FSIZE, set from outside with prlimit) makes every write past its first byte fail
// as a full disk does: COMMIT and RELEASE meet SQLITE_FULL or SQLITE_IOERR_WRITE. Without the
// recovery in server/src/db/sqlite-serial.ts the connection was left inside a transaction for good:
// later writes answered 200 but never reached the file, and /readyz stayed 503 until a restart.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.js';
import type { TestDatabase } from '../support/database.js';
import type { SignedUpMember } from '../support/members.js';
import { signUpMember } from '../support/members.js';
import type { ServerProcess } from '../support/server-process.js';
import { startServerProcess } from '../support/server-process.js';
import { readStored } from '../support/stored.js';
import type { Attempt } from '../support/write-load.js';
import { WriteLoad, contradictions, eventually } from '../support/write-load.js';

/**
 * The restart's settings: its reconciliation at start repairs sign-ups a failure left half done (F4).
 * The first start has none, so that its claim on the hourly run does not put the restart's off.
 */
const RESTART_ENV = { RECONCILE_ON_START: 'true', RECONCILE_GRACE_SECONDS: '0' };
/** The load's sign-ups all come from one address: the per-address sign-up limit is not what this tests. */
const LOAD_ENV = { AUTH_RATE_LIMIT_OTP: '100000' };
/** Codes a write refused for the full disk may carry (sign-ups go through the identity service). */
const UNAVAILABLE = ['SERVICE_UNAVAILABLE', 'IDENTITY_UNAVAILABLE'];

let database: TestDatabase;
let server: ServerProcess | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await server?.stop();
  await database.drop();
});

/** Limits the size of every file the process writes ("unlimited" frees the disk again). */
function limitFileSize(pid: number, bytes: number | 'unlimited'): void {
  execFileSync('prlimit', ['--pid', String(pid), `--fsize=${String(bytes)}:unlimited`]);
}

async function ready(target: ServerProcess): Promise<number> {
  return (await fetch(`${target.url}/readyz`)).status;
}

describe('SQLite disk full mid-load, then freed (F9)', () => {
  it('acknowledges only what it kept, loses none of it, and recovers without a restart', async () => {
    if (database.database.type !== 'sqlite') throw new Error('this test needs the SQLite project');
    const running = await startServerProcess({ ...database.env, ...LOAD_ENV });
    server = running;
    const pid = running.child.pid ?? 0;
    const members: SignedUpMember[] = [];
    for (let i = 0; i < 3; i++) members.push(await signUpMember(running));
    const load = new WriteLoad(running, { editors: members, linkMembers: [], signUpWorkers: 2 });
    // The sign-up limit's window is a second even when raised: a fast machine may pass it.
    const rateLimitedSignUp = (each: Attempt) => each.code === 'RATE_LIMITED' && load.signUps.includes(each);
    const refusedForTheDisk = () =>
      load.all().filter((each) => each.outcome === 'refused' && !rateLimitedSignUp(each)).length;
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      limitFileSize(pid, 1);
      const refusedBefore = refusedForTheDisk();
      // Full until writes of every kind have met the full disk.
      expect(await eventually(() => refusedForTheDisk() >= refusedBefore + 6), running.output()).toBe(true);
      expect(await ready(running)).toBe(503);
      limitFileSize(pid, 'unlimited');
      const acknowledgedBefore = load.count('acknowledged');
      expect(await eventually(() => load.count('acknowledged') >= acknowledgedBefore + 6)).toBe(true);
    } finally {
      limitFileSize(pid, 'unlimited');
      await load.stop();
    }
    // Ready again by itself, in the same process.
    expect(await eventually(async () => (await ready(running)) === 200)).toBe(true);
    expect(running.child.exitCode).toBeNull();

    for (const refused of load.all().filter((each) => each.outcome === 'refused' && !rateLimitedSignUp(each))) {
      expect(UNAVAILABLE, JSON.stringify(refused)).toContain(refused.code);
    }
    expect(load.count('unanswered')).toBe(0);
    // Another process sees every acknowledged write while the server still runs...
    const live = await readStored(database.database);
    expect(contradictions(load, { ...live, orphans: [] })).toEqual([]);

    // ...and after a restart, with the sign-ups a failure left half done repaired (F4).
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    await running.stop();
    const restarted = await startServerProcess({ ...database.env, ...RESTART_ENV });
    server = restarted;
    expect(await eventually(async () => (await readStored(database.database)).orphans.length === 0)).toBe(true);
    restarted.child.kill('SIGTERM');
    await restarted.exited;
    expect(contradictions(load, await readStored(database.database))).toEqual([]);
  });
});

/** Starts a server that must fail to start; answers what it printed, with its exit code. */
async function failedStart(env: Record<string, string>, launcher?: string[]): Promise<string> {
  const started = await startServerProcess(env, { launcher }).then(
    async (unexpected) => {
      await unexpected.stop();
      return undefined;
    },
    (error: unknown) => String(error),
  );
  if (started === undefined) throw new Error('the server started where it should have refused to');
  return started;
}

/** The one line a refused start prints, checked for its cause and exit code, with no stack beside it. */
function expectOnePlainLine(output: string, cause: string, file: string): void {
  const lines = output.split('\n').filter((line) => line.includes('Lampstand cannot start'));
  expect(lines, output).toHaveLength(1);
  expect(lines[0]).toContain(cause);
  expect(lines[0]).toContain(file);
  expect(lines[0]).toContain('exit code 74');
  expect(output).toContain('(exit code 74)');
  expect(output).not.toMatch(/\n\s+at /);
}

describe('starting on a broken or full disk', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'lampstand-broken-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits with one plain line naming the cause when the file is not a database', async () => {
    const file = path.join(dir, 'broken.sqlite');
    writeFileSync(file, 'this is not a database, though it has the name of one\n'.repeat(100));
    expectOnePlainLine(await failedStart({ SQLITE_FILE: file }), 'SQLITE_NOTADB', file);
  });

  it('exits with one plain line naming the cause when the disk is full', async () => {
    const file = path.join(dir, 'full.sqlite');
    const output = await failedStart({ SQLITE_FILE: file }, ['prlimit', '--fsize=1', '--']);
    expectOnePlainLine(output, 'SQLITE_', file);
  });
});
