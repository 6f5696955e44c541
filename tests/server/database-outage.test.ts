// F1: the database becomes unavailable while the app is serving, then comes back.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { GraphQLResponse, TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { SignedUpMember } from '../support/members.js';
import { ME, signUpMember } from '../support/members.js';

const PROFILE = 'query ($username: String!) { profile(username: $username) { username name } }';
const UPDATE_NAME = 'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { name } }';
/** What must never reach a client: SQL, driver or database names, file paths, stack frames. */
const INTERNALS =
  /select|insert|update .* set|postgres|sqlite|pg_|relation|terminat|connection|\bat \S+ \(|\.ts:|stack/i;

let api: TestApp;
let member: SignedUpMember;
beforeAll(async () => {
  api = await startTestApp();
  member = await signUpMember(api);
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

/** Makes the app's PostgreSQL database refuse connections and ends the ones it has; returns the repair. */
async function cutPostgres(): Promise<() => Promise<void>> {
  const name = new URL(api.config.database.type === 'postgres' ? api.config.database.url : '').pathname.slice(1);
  const admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
  await admin.connect();
  await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
  await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
  return async () => {
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    await admin.end();
  };
}

function expectUnavailable(response: GraphQLResponse<unknown>): void {
  // 503 when the caller's token could not be checked, else 200 with the field's error.
  expect([200, 503]).toContain(response.status);
  expect(response.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');
  expect(JSON.stringify(response)).not.toMatch(INTERNALS);
}

describe('PostgreSQL unavailable mid-load (F1)', () => {
  it('fails requests fast with a coded error, reports not ready, and recovers without a restart', async () => {
    const { username } = member.member.profile;
    const token = member.session.accessToken;
    const load = (): Promise<GraphQLResponse<unknown>>[] => [
      api.graphql(PROFILE, { username }),
      api.graphql(ME, {}, { token }),
      api.graphql(UPDATE_NAME, { input: { name: 'Lydia' } }, { token }),
    ];
    const inFlight = Promise.all(Array.from({ length: 5 }, load).flat());
    const repair = await cutPostgres();
    try {
      // Those in flight when it went either finished or failed cleanly.
      for (const response of await inFlight) {
        if (response.errors) expectUnavailable(response);
      }
      const during = await Promise.all(
        Array.from({ length: 3 }, load)
          .flat()
          .map((request) => timed(() => request)),
      );
      for (const { answer, ms } of during) {
        expectUnavailable(answer);
        expect(ms).toBeLessThanOrEqual(5000);
      }
      const ready = await timed(() => fetch(`${api.url}/readyz`));
      expect(ready.answer.status).toBe(503);
      expect(await ready.answer.json()).toMatchObject({ status: 'unavailable', database: 'unreachable' });
      expect(ready.ms).toBeLessThanOrEqual(5000);
    } finally {
      await repair();
    }

    expect((await fetch(`${api.url}/readyz`)).status).toBe(200);
    const after = await Promise.all(load());
    for (const response of after) expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
    expect(await api.graphql(PROFILE, { username })).toMatchObject({ data: { profile: { name: 'Lydia' } } });
  });
});
