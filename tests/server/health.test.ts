import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => {
  await api.close();
});

describe('health endpoints', () => {
  it('reports the process alive', async () => {
    const response = await fetch(`${api.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('reports the database reachable', async () => {
    const response = await fetch(`${api.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready', database: 'ok' });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await fetch(`${api.url}/graphql/nothing-here`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'Not Found' });
  });
});
