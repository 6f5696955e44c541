import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config.js';
import { createDataSource } from '../../server/src/app/data-source.js';
import { openDatabase } from '../../server/src/db/data-source.js';
import { loadIdentityKeys } from '../../server/src/identity/embedded/keys.js';
import { createIdentityServer } from '../../server/src/identity/embedded/service.js';
import type { DataSource } from 'typeorm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '../support/database.js';
import type { TestDatabase } from '../support/database.js';
import { GOOD_PASSWORD, supabaseClient, uniqueEmail } from '../support/identity.js';

let server: FastifyInstance;
let url: string;
let serviceRoleKey: string;
let database: TestDatabase;
let dataSource: DataSource;
let dataDir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'lampstand-identity-'));
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ...database.env });
  dataSource = await openDatabase(createDataSource(config.database));
  server = await createIdentityServer(config, dataSource);
  ({ serviceRoleKey } = await loadIdentityKeys(config));
  url = await server.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await server.close();
  await dataSource.destroy();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the identity service on its own listener', () => {
  it('§1.1 answers at the root path, as Supabase Auth serves', async () => {
    const health = await fetch(`${url}/health`);
    expect(await health.json()).toMatchObject({ name: 'GoTrue' });
    const email = uniqueEmail();
    const signup = await fetch(`${url}/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
      body: JSON.stringify({ email, password: GOOD_PASSWORD }),
    });
    expect(signup.status).toBe(200);
    expect(await signup.json()).toMatchObject({ token_type: 'bearer', user: { email } });
  });

  it('§1.1 answers supabase-js at /auth/v1 on the same listener', async () => {
    const { data, error } = await supabaseClient(url, serviceRoleKey).auth.admin.listUsers();
    expect(error).toBeNull();
    expect(data.users.length).toBeGreaterThan(0);
  });
});
