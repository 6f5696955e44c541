// SQLite files that can no longer be written (made immutable, the file system remounted read-only):
// the server answers coded errors and stays up. Without the guard in server/src/db/sqlite-guard.ts,
// the first statement after `chattr +i` on the WAL index (-shm) ends the process with SIGBUS.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.js';
import type { TestDatabase } from '../support/database.js';
import { firstError, signUpMember } from '../support/members.js';
import type { ServerProcess } from '../support/server-process.js';
import { startServerProcess } from '../support/server-process.js';

const UPDATE_NAME = 'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { name } }';
const PROFILE = 'query ($username: String!) { profile(username: $username) { name } }';

let database: TestDatabase;
let server: ServerProcess;
let files: string[];

/** `chattr` on the database's files; this test needs root on a file system with the immutable flag. */
function chattr(flag: '+i' | '-i'): void {
  execFileSync('chattr', [flag, ...files]);
}

beforeAll(async () => {
  database = await createTestDatabase();
  if (database.database.type !== 'sqlite') throw new Error('this test needs the SQLite project');
  const file = database.database.file;
  server = await startServerProcess({ ...database.env });
  files = [file, `${file}-wal`, `${file}-shm`];
  for (const each of files) expect(existsSync(each), `${each} should exist while the server runs`).toBe(true);
  // Fails loudly, never skips, where the precondition is missing (not root, no immutable flag).
  chattr('+i');
  chattr('-i');
});
afterAll(async () => {
  chattr('-i');
  await server.stop();
  await database.drop();
});

describe('SQLite files that cannot be written', () => {
  it('answer coded errors, keep the process up, report not ready, and recover once writable', async () => {
    const member = await signUpMember(server);
    const { username } = member.member.profile;
    chattr('+i');
    try {
      const signUp = await server
        .graphql(
          'mutation { signUp(input: { email: "late@example.com", password: "correct horse battery staple", first: "Late", platform: "web" }) { confirmationSent } }',
        )
        .catch((error: unknown) => ({ lost: String(error) }));
      expect(signUp, server.output()).toHaveProperty('errors');
      const update = await server.graphql(
        UPDATE_NAME,
        { input: { name: 'Changed' } },
        { token: member.session.accessToken },
      );
      expect(firstError(update).code).toBe('SERVICE_UNAVAILABLE');
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ database: 'read-only' });
      expect(server.child.exitCode, server.output()).toBeNull();
      expect(server.child.signalCode).toBeNull();
    } finally {
      chattr('-i');
    }
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const renamed = await server.graphql(
      UPDATE_NAME,
      { input: { name: 'Renamed' } },
      { token: member.session.accessToken },
    );
    expect(renamed.errors).toBeUndefined();
    expect((await server.graphql<{ profile: { name: string } }>(PROFILE, { username })).data?.profile.name).toBe(
      'Renamed',
    );
  });
});
