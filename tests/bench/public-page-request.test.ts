// The bench sends what visitors send (issue 32): P11 takes the public page's read from the built app
// in Chromium. The page is rendered by the server (app/profile-page.ts), so a first visit is its
// document alone: were the page to ask /graphql for more, P11 would miss what visitors cost.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicPageVisit } from '../../bench/support/app-requests.js';
import { pageRead } from '../../bench/support/day-mix.js';
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

describe('a first visit to a public page, as the bench takes it from the app', () => {
  it("is one document request, sent from the server's rendering with no GraphQL request after it", async () => {
    const lean = await counted('lampstand_graphql_lean_answers_total');
    const visit = await publicPageVisit(serverUrl(), seededUsername(1), 'Member 1');
    expect(visit.document).toMatchObject({ method: 'GET', path: `/@${seededUsername(1)}` });
    expect(visit.graphql).toEqual([]);
    expect(await counted('lampstand_graphql_lean_answers_total')).toBe(lean);
    const html = await (await fetch(`${serverUrl()}/@${seededUsername(1)}`)).text();
    expect(html).toContain('lampstand-page');
  });

  it("is the request the load makes for a page, with the app's own headers", async () => {
    const visit = await publicPageVisit(serverUrl(), seededUsername(2), 'Member 2');
    const made = pageRead(seededUsername(2), visit.document.headers);
    expect({ method: made.method, path: made.path }).toEqual({
      method: visit.document.method,
      path: visit.document.path,
    });
    expect(made.headers).toMatchObject(visit.document.headers);
  });
});
