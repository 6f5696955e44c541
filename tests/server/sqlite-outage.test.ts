// F1 on SQLite: another process (a backup tool, the sqlite3 shell) holds the write lock while the
// app is serving, then lets it go.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphQLResponse, TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { GOOD_PASSWORD } from '../support/identity.js';
import type { SignedUpMember } from '../support/members.js';
import { LOGIN, signUpMember } from '../support/members.js';

const PROFILE = 'query ($username: String!) { profile(username: $username) { username name } }';
const UPDATE_NAME = 'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { name } }';
/** What must never reach a client: SQL, driver or database names, file paths, stack frames. */
const INTERNALS = /select|insert|update .* set|sqlite|locked|busy|\.sqlite|\bat \S+ \(|\.ts:|stack/i;
/** Members updating their profiles and logging in at once while the lock is held. */
const WRITERS = 4;

let api: TestApp;
let members: SignedUpMember[];
beforeAll(async () => {
  api = await startTestApp();
  members = [];
  for (let i = 0; i < WRITERS; i++) members.push(await signUpMember(api));
});
afterAll(async () => {
  await api.close();
});

/** Runs `request` and returns its answer with how long it took. */
async function timed<T>(request: () => Promise<T>): Promise<{ answer: T; ms: number }> {
  const started = performance.now();
  const answer = await request();
  return { answer, ms: performance.now() - started };
}

/** A second connection to the app's file, as another process would open it. */
function openOther(): Database.Database {
  const { database } = api.config;
  if (database.type !== 'sqlite') throw new Error('this test needs the SQLite project');
  return new Database(database.file, { timeout: 0 });
}

/** A login's first statement is a write (the new session), so it meets SQLite's busy wait. */
function logIn(member: SignedUpMember): Promise<GraphQLResponse<unknown>> {
  return api.graphql(LOGIN, { input: { email: member.email, password: GOOD_PASSWORD } });
}

function expectFastCodedFailure({ answer, ms }: { answer: GraphQLResponse<unknown>; ms: number }, code: string): void {
  expect(answer.errors?.[0]?.extensions?.code, JSON.stringify(answer)).toBe(code);
  expect(JSON.stringify(answer)).not.toMatch(INTERNALS);
  expect(ms).toBeLessThanOrEqual(5000);
}

function rename(member: SignedUpMember, name: string): Promise<GraphQLResponse<{ updateProfile: { name: string } }>> {
  return api.graphql(UPDATE_NAME, { input: { name } }, { token: member.session.accessToken });
}

describe('SQLite write lock held by another process (F1)', () => {
  it('fails writes fast with a coded error, reports not ready, and recovers without a restart', async () => {
    const [first] = members;
    if (!first) throw new Error('no member signed up');
    const { username } = first.member.profile;
    const other = openOther();
    other.exec('BEGIN IMMEDIATE');
    try {
      const [read, ...writes] = await Promise.all([
        timed(() => api.graphql(PROFILE, { username })),
        ...members.flatMap((member, i) => [timed(() => rename(member, `Held ${i}`)), timed(() => logIn(member))]),
      ]);
      for (const [i, write] of writes.entries()) {
        // The embedded identity service answers 503 for its database, which GraphQL codes as F2 does.
        expectFastCodedFailure(write, i % 2 === 0 ? 'SERVICE_UNAVAILABLE' : 'IDENTITY_UNAVAILABLE');
      }
      // Readers are never blocked by a writer in WAL mode.
      expect(read.answer).toMatchObject({ data: { profile: { username } } });
      expect(read.answer.errors).toBeUndefined();

      const ready = await timed(() => fetch(`${api.url}/readyz`));
      expect(ready.answer.status).toBe(503);
      expect(await ready.answer.json()).toMatchObject({ status: 'unavailable' });
      expect(ready.ms).toBeLessThanOrEqual(5000);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }

    expect((await fetch(`${api.url}/readyz`)).status).toBe(200);
    const after = await rename(first, 'Lydia');
    expect(after.errors, JSON.stringify(after.errors)).toBeUndefined();
    expect(after.data).toEqual({ updateProfile: { name: 'Lydia' } });
    expect(await api.graphql(PROFILE, { username })).toMatchObject({ data: { profile: { name: 'Lydia' } } });
    // Committed to the file, as any other connection sees it.
    const reader = openOther();
    try {
      expect(reader.prepare('SELECT name FROM profiles WHERE username = ?').get(username)).toEqual({ name: 'Lydia' });
    } finally {
      reader.close();
    }
  });
});
