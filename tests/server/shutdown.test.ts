// F3: SIGTERM under load, on the real server process (server/src/main.ts) as a platform stops it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.js';
import type { TestDatabase } from '../support/database.js';
import { GOOD_PASSWORD, uniqueEmail } from '../support/identity.js';
import { LOGIN, SESSION_FIELDS, SIGN_UP, signUpMember } from '../support/members.js';
import type { ServerProcess } from '../support/server-process.js';
import { startServerProcess } from '../support/server-process.js';

const CHANGE_PASSWORD = `mutation ($input: ChangePasswordInput!) { changePassword(input: $input) { session { ${SESSION_FIELDS} } } }`;
const PROFILE = 'query ($username: String!) { profile(username: $username) { username } }';

let database: TestDatabase;
let server: ServerProcess;

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startServerProcess({
    ...database.env,
    AUTH_RATE_LIMIT_TOKEN: '1000',
    AUTH_RATE_LIMIT_TOKEN_BURST: '1000',
    AUTH_RATE_LIMIT_OTP: '1000',
  });
});
afterAll(async () => {
  await server.stop();
  await database.drop();
});

/** The requests the server has received so far (answered, plus in flight), from its metrics. */
async function requestsSeen(): Promise<{ received: number; inFlight: number }> {
  const text = await (await fetch(server.metricsUrl)).text();
  const value = (line: string): number => Number(line.slice(line.lastIndexOf(' ') + 1));
  const lines = text.split('\n');
  const answered = lines
    .filter((line) => line.startsWith('lampstand_http_request_duration_seconds_count{'))
    .reduce((sum, line) => sum + value(line), 0);
  const inFlight = value(lines.find((line) => line.startsWith('lampstand_http_requests_in_flight ')) ?? ' 0');
  return { received: answered + inFlight, inFlight };
}

describe('SIGTERM under load (F3)', () => {
  it('lets every request in flight finish, identity calls included, then exits 0 within 10 s', async () => {
    const members = await Promise.all(Array.from({ length: 6 }, () => signUpMember(server)));
    const before = await requestsSeen();
    // Password changes make two identity calls one after the other: the second starts after SIGTERM.
    const work = [
      ...members
        .slice(0, 3)
        .map((member) => server.graphql(LOGIN, { input: { email: member.email, password: GOOD_PASSWORD } })),
      ...members
        .slice(3)
        .map((member) =>
          server.graphql(
            CHANGE_PASSWORD,
            { input: { currentPassword: GOOD_PASSWORD, newPassword: 'a new passphrase at closing time' } },
            { token: member.session.accessToken },
          ),
        ),
      ...Array.from({ length: 3 }, () =>
        server.graphql(SIGN_UP, {
          input: { email: uniqueEmail('closing'), password: GOOD_PASSWORD, first: 'Silas', platform: 'web' },
        }),
      ),
      ...members.map((member) => server.graphql(PROFILE, { username: member.member.profile.username })),
    ];
    let seen = await requestsSeen();
    while (seen.received < before.received + work.length) seen = await requestsSeen();

    const signalled = performance.now();
    server.child.kill('SIGTERM');
    const answers = await Promise.all(work);
    const code = await server.exited;
    const exitMs = performance.now() - signalled;

    expect(seen.inFlight, 'requests were in flight when SIGTERM arrived').toBeGreaterThan(0);
    for (const answer of answers) {
      expect(answer.errors, `${JSON.stringify(answer.errors)}\n${server.output()}`).toBeUndefined();
      expect(answer.status).toBe(200);
    }
    expect(code, server.output()).toBe(0);
    expect(exitMs).toBeLessThanOrEqual(10_000);
  });
});
