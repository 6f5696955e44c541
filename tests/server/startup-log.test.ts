// What the real server process (server/src/main.ts) says when it starts: one origin, and the
// development service-role key only when it is made.
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.js';
import type { TestDatabase } from '../support/database.js';
import { startServerProcess } from '../support/server-process.js';

let database: TestDatabase;
let dataDir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'lampstand-startup-'));
});
afterAll(async () => {
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts the server on the shared data folder, and answers what it logged by the time it was ready. */
async function start(): Promise<{ log: string; url: string }> {
  const server = await startServerProcess({ ...database.env, DATA_DIR: dataDir });
  const log = server.output();
  server.child.kill('SIGTERM');
  await server.exited;
  await server.stop();
  return { log, url: server.url };
}

describe('the start-up log', () => {
  it('shows the service-role key on the first start only, and says where it is kept', async () => {
    const first = await start();
    const secrets = JSON.parse(await readFile(path.join(dataDir, 'dev-secrets.json'), 'utf8')) as {
      serviceRoleKey: string;
      anonKey: string;
    };
    const file = path.join(dataDir, 'dev-secrets.json');
    expect(first.log).toContain(secrets.serviceRoleKey);
    expect(first.log).toContain(file);

    const second = await start();
    expect(second.log).not.toContain(secrets.serviceRoleKey);
    expect(second.log).toContain(secrets.anonKey);
    expect(second.log).toContain(file);
    expect(second.log).toContain('the service-role key is in this file');
  });

  it('names one origin, the public address that emailed links use', async () => {
    const { log, url } = await start();
    const origins = new Set(log.match(/https?:\/\/[^\s"'/]+/g));
    expect([...origins]).toEqual([url]);
    // Nor the socket's address as a field beside it (the metrics' own port is another matter).
    expect(log).not.toMatch(/"host":/);
    // The release that runs, in the line that says it is ready and in the one that says what it serves.
    expect(log).toMatch(/Lampstand \d+\.\d+\.\d+ \([0-9a-f]{12}\) is ready at/);
    expect(log).toMatch(/"version":"\d+\.\d+\.\d+","commit":"[0-9a-f]{40}","node":"[\d.]+"/);
  });
});
