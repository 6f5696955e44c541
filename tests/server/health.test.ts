import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { freePort, startTestApp } from '../support/app.js';

/** The release every readiness answer names: the root package.json's version and the checkout's commit. */
const release = {
  version: (
    JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string }
  ).version,
  commit: expect.stringMatching(/^[0-9a-f]{40}$/) as unknown,
};

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

  it('reports the database reachable, and the release that runs', async () => {
    const response = await fetch(`${api.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready', database: 'ok', ...release });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await fetch(`${api.url}/graphql/nothing-here`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'Not Found' });
  });
});

describe('readiness with Redis configured', () => {
  it('reports Redis reachable', async () => {
    const withRedis = await startTestApp({ REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' });
    try {
      const response = await fetch(`${withRedis.url}/readyz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ready', database: 'ok', redis: 'ok', ...release });
    } finally {
      await withRedis.close();
    }
  });

  it('reports Redis unreachable as degraded, still ready: rate limits fall back to each instance', async () => {
    const withoutRedis = await startTestApp({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    try {
      const response = await fetch(`${withoutRedis.url}/readyz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'degraded', database: 'ok', redis: 'unreachable', ...release });
    } finally {
      await withoutRedis.close();
    }
  });
});
