// The bench sends what visitors send (issue 32): P11 takes the public page's request from the built
// app in Chromium. That request must be one the lean executor answers (graphql/public-executor.ts),
// or a visitor's page read would cost Apollo's path while the bench measured the lean one.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profilePageRequests, publicPageRequests } from '../../bench/support/app-requests.js';
import { seedMembers, seededUsername } from '../../bench/seed.js';
import { createDataSource } from '../../server/src/app/data-source.js';
import { openDatabase } from '../../server/src/db/data-source.js';
import type { ServerProcess } from '../support/server-process.js';
import { startServerProcess } from '../support/server-process.js';

const root = path.resolve(import.meta.dirname, '../..');
const webDist = path.join(root, 'web/dist');
const scratch = mkdtempSync(path.join(tmpdir(), 'lampstand-page-request-'));
let server: ServerProcess | undefined;

/** What the metrics port has counted of `name` so far. */
async function counted(name: string): Promise<number> {
  if (!server) throw new Error('the server did not start');
  const text = await (await fetch(server.metricsUrl)).text();
  return Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
}

function serverUrl(): string {
  if (!server) throw new Error('the server did not start');
  return server.url;
}

beforeAll(async () => {
  // The built app, as the bench uses it: reused when it is there.
  if (!existsSync(path.join(webDist, 'profile.html'))) {
    const build = spawnSync(process.execPath, [process.env.npm_execpath ?? 'npm', 'run', 'build', '-w', 'web'], {
      cwd: root,
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(`the web build failed:\n${build.stdout}\n${build.stderr}`);
  }
  const file = path.join(scratch, 'members.sqlite');
  const dataSource = await openDatabase(createDataSource({ type: 'sqlite', file }));
  await seedMembers(dataSource, 3, { links: true });
  await dataSource.destroy();
  server = await startServerProcess({ SQLITE_FILE: file, WEB_DIST_DIR: webDist });
  // The bench project sets no hook timeout of its own; a web build and a start take minutes on a busy machine.
}, 600_000);
afterAll(async () => {
  await server?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the public page's request, as the bench takes it from the app", () => {
  it('is answered by the lean executor', async () => {
    const lean = await counted('lampstand_graphql_lean_answers_total');
    const requests = await publicPageRequests(serverUrl(), seededUsername(1), 'Member 1');
    expect(requests).toHaveLength(1);
    expect(JSON.parse(requests[0]?.body ?? '{}')).toMatchObject({
      operationName: 'ProfilePage',
      variables: { username: seededUsername(1) },
    });
    expect(await counted('lampstand_graphql_lean_answers_total')).toBe(lean + 1);
  });

  it('is made for another page by changing only the username, as the app makes it', async () => {
    const [sample] = await publicPageRequests(serverUrl(), seededUsername(0), 'Member 0');
    const [other] = await publicPageRequests(serverUrl(), seededUsername(2), 'Member 2');
    expect(sample).toBeDefined();
    expect(profilePageRequests(sample ?? { body: '', headers: {} })(seededUsername(2))).toBe(other?.body);
  });
});
