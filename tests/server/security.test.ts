import { mkdtempSync, copyFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../server/src/db/errors.js';
import type { TestApp } from '../support/app.js';
import { productionEnv, startTestApp } from '../support/app.js';
import { insertMember } from '../support/factories.js';

const distDir = mkdtempSync(path.join(tmpdir(), 'lampstand-dist-'));
copyFileSync(path.resolve(import.meta.dirname, '../../web/index.html'), path.join(distDir, 'index.html'));

const FRIEND = 'https://friend.example';
const STRANGER = 'https://church.example';

let api: TestApp;
let withTagManager: TestApp;
let production: TestApp;
beforeAll(async () => {
  api = await startTestApp({ WEB_DIST_DIR: distDir, CORS_ORIGINS: FRIEND });
  withTagManager = await startTestApp({ WEB_DIST_DIR: distDir, GTM_CONTAINER_ID: 'GTM-TEST123' });
  production = await startTestApp({ ...productionEnv(), WEB_DIST_DIR: distDir });
});
afterAll(async () => {
  await api.close();
  await withTagManager.close();
  await production.close();
  rmSync(distDir, { recursive: true, force: true });
});

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | null): Map<string, string[]> {
  return new Map(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...values]) => [name, values]),
  );
}

/** Every header the security hook may set on an answer (helmet's and Permissions-Policy). */
const SECURITY_HEADERS = new Set([
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'permissions-policy',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]);

function post(app: TestApp, query: string, headers: Record<string, string>): Promise<Response> {
  return fetch(`${app.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
}

describe('security headers', () => {
  it('forbid framing, sniffing and inline scripts on pages', async () => {
    for (const pathname of ['/', '/login', '/healthz']) {
      const response = await fetch(`${api.url}${pathname}`, { headers: { 'apollo-require-preflight': 'true' } });
      const csp = directives(response.headers.get('content-security-policy'));
      expect(csp.get('frame-ancestors'), pathname).toEqual(["'none'"]);
      expect(csp.get('script-src'), pathname).toEqual(["'self'"]);
      expect(csp.get('object-src'), pathname).toEqual(["'none'"]);
      expect(response.headers.get('x-frame-options'), pathname).toBe('DENY');
      expect(response.headers.get('x-content-type-options'), pathname).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), pathname).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('permissions-policy'), pathname).toContain('camera=()');
      expect(response.headers.get('strict-transport-security'), pathname).toBeNull();
    }
  });

  it("give the API's JSON answers an API's headers: no framing, no sniffing, nothing loaded", async () => {
    for (const app of [api, production]) {
      const get = await fetch(`${app.url}/graphql?query=%7B__typename%7D`);
      const posted = await post(app, '{ __typename }', { origin: STRANGER });
      for (const response of [get, posted]) {
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        const security = [...response.headers].filter(([name]) => SECURITY_HEADERS.has(name));
        expect(security).toEqual([
          ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
          ['cross-origin-resource-policy', 'same-origin'],
          ...(app === production
            ? [['strict-transport-security', 'max-age=31536000; includeSubDomains'] as const]
            : []),
          ['x-content-type-options', 'nosniff'],
          ['x-frame-options', 'DENY'],
        ]);
      }
    }
  });

  it("give an API answer that is not JSON a page's headers", async () => {
    const refused = await fetch(`${api.url}/graphql`, { method: 'OPTIONS', headers: { origin: FRIEND } });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toMatch(/^text\/plain/);
    const page = await fetch(`${api.url}/`);
    const security = (response: Response) => [...response.headers].filter(([name]) => SECURITY_HEADERS.has(name));
    expect(security(refused)).toEqual(security(page));
  });

  it('allow the tag manager only when a container is configured', async () => {
    const response = await fetch(`${withTagManager.url}/`);
    const csp = directives(response.headers.get('content-security-policy'));
    expect(csp.get('script-src')).toEqual(["'self'", 'https://www.googletagmanager.com']);
    expect(csp.get('connect-src')).toContain('https://*.google-analytics.com');
  });

  it('ask browsers for HTTPS only in production', async () => {
    const response = await fetch(`${production.url}/`);
    expect(response.headers.get('strict-transport-security')).toMatch(/max-age=31536000/);
    expect(directives(response.headers.get('content-security-policy')).has('upgrade-insecure-requests')).toBe(true);
  });
});

describe('CORS', () => {
  it('lets any origin read the public queries, without credentials', async () => {
    const { profile } = await insertMember(api.dataSource);
    const preflight = await fetch(`${api.url}/graphql`, {
      method: 'OPTIONS',
      headers: {
        origin: STRANGER,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    expect(preflight.headers.get('access-control-allow-headers')).not.toMatch(/authorization/i);

    const response = await post(
      api,
      `{ profile(username: "${profile.username}") { username } verseOfTheDay { ref } }`,
      {
        origin: STRANGER,
      },
    );
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await response.json()) as { data: { profile: { username: string } } };
    expect(body.data.profile.username).toBe(profile.username);
  });

  it('keeps every other answer from other origins', async () => {
    const login = await post(api, 'mutation { login(input: { email: "a@b.example", password: "x" }) { __typename } }', {
      origin: STRANGER,
    });
    expect(login.headers.get('access-control-allow-origin')).toBeNull();
    const mixed = await post(api, '{ profile(username: "nobody") { username } me { uid } }', { origin: STRANGER });
    expect(mixed.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets the site itself and CORS_ORIGINS call everything, with a token', async () => {
    for (const origin of [FRIEND, new URL(api.url).origin]) {
      const preflight = await fetch(`${api.url}/graphql`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
      const login = await post(
        api,
        'mutation { login(input: { email: "a@b.example", password: "x" }) { __typename } }',
        {
          origin,
        },
      );
      expect(login.headers.get('access-control-allow-origin')).toBe(origin);
    }
  });

  it('answer preflights as @fastify/cors did: exact headers, refusals and paths without CORS', async () => {
    const preflight = (path: string, headers: Record<string, string>) =>
      fetch(`${api.url}${path}`, { method: 'OPTIONS', headers });
    const trusted = await preflight('/healthz', { origin: FRIEND, 'access-control-request-method': 'GET' });
    expect(trusted.status).toBe(204);
    expect(trusted.headers.get('content-length')).toBe('0');
    expect(trusted.headers.get('vary')).toBe('Origin');
    expect(trusted.headers.get('access-control-allow-methods')).toBe('GET, POST');
    expect(trusted.headers.get('access-control-max-age')).toBe('600');
    expect(trusted.headers.get('access-control-expose-headers')).toMatch(/^etag, retry-after, /);
    const stranger = await preflight('/graphql', { origin: STRANGER, 'access-control-request-method': 'POST' });
    expect(stranger.headers.get('access-control-allow-headers')).toBe(
      'content-type, apollo-require-preflight, x-apollo-operation-name, x-request-id, traceparent',
    );
    expect(stranger.headers.get('access-control-expose-headers')).toBeNull();
    // A preflight without the method it asks for is refused; other origins get no CORS beyond /graphql.
    const incomplete = await preflight('/graphql', { origin: STRANGER });
    expect(incomplete.status).toBe(400);
    expect(await incomplete.text()).toBe('Invalid Preflight Request');
    const elsewhere = await preflight('/healthz', { origin: STRANGER, 'access-control-request-method': 'GET' });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
    // Every answer varies by Origin, with or without one.
    expect((await fetch(`${api.url}/healthz`)).headers.get('vary')).toBe('Origin');
  });
});

describe('errors outside GraphQL', () => {
  it('show people a page without the database error when a profile page fails', async () => {
    const { profile } = await insertMember(production.dataSource);
    await production.dataSource.query('ALTER TABLE profiles RENAME TO profiles_away');
    try {
      const response = await fetch(`${production.url}/@${profile.username}`, { headers: { accept: 'text/html' } });
      expect(response.status).toBeGreaterThanOrEqual(500);
      const html = await response.text();
      expect(html).toContain('Please try again in a moment.');
      expect(html).not.toMatch(/profiles|relation|no such table|SELECT/i);

      const json = await fetch(`${production.url}/@${profile.username}`, { headers: { accept: 'application/json' } });
      const body = (await json.json()) as { code: string; message: string };
      expect(body.code).toBe('INTERNAL_SERVER_ERROR');
      expect(JSON.stringify(body)).not.toMatch(/profiles|relation|no such table|SELECT/i);
    } finally {
      await production.dataSource.query('ALTER TABLE profiles_away RENAME TO profiles');
    }
  });

  it('keep the status and message of a client mistake', async () => {
    const response = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query": ',
    });
    expect(response.status).toBe(400);
  });

  it('tell a database outage (503) from a bug (500)', () => {
    const driver = (code: string) => Object.assign(new Error('driver'), { code });
    expect(isDatabaseUnavailable(driver('55000'))).toBe(true);
    expect(isDatabaseUnavailable(driver('57P01'))).toBe(true);
    expect(isDatabaseUnavailable(driver('08006'))).toBe(true);
    expect(isDatabaseUnavailable(driver('SQLITE_READONLY'))).toBe(true);
    expect(isDatabaseUnavailable(driver('SQLITE_BUSY'))).toBe(true);
    expect(isDatabaseUnavailable(driver('SQLITE_BUSY_SNAPSHOT'))).toBe(true);
    expect(isDatabaseUnavailable(driver('SQLITE_LOCKED'))).toBe(true);
    expect(isDatabaseUnavailable(driver('SQLITE_PROTOCOL'))).toBe(true);
    expect(isDatabaseUnavailable(driver('SQLITE_CONSTRAINT_UNIQUE'))).toBe(false);
    expect(isDatabaseUnavailable(driver('SQLITE_FULL'))).toBe(true);
    expect(isDatabaseUnavailable(driver('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailable(driver('23505'))).toBe(false);
    expect(isDatabaseUnavailable(new Error('plain'))).toBe(false);
  });
});
