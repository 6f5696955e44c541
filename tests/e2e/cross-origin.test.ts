import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { freePort, startTestApp } from '../support/app.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';
import { AuthSessionRecord } from '../../server/src/identity/embedded/entities.js';
import { ReportRecord } from '../../server/src/moderation/moderation.entities.js';
import { insertMember } from '../support/factories.js';
import { GOOD_PASSWORD } from '../support/identity.js';
import { signUpMember } from '../support/members.js';

let api: TestApp;
let browser: TestBrowser;
let church: Server;
let churchUrl: string;

beforeAll(async () => {
  api = await startTestApp({ WEB_DIST_DIR: inject('webDistDir') });
  browser = await launchBrowser();
  // Another site on another loopback origin: a church's page that shows a member's verse.
  const port = await freePort();
  church = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Church</title><p>Hello</p>');
  });
  await new Promise<void>((resolve) => church.listen(port, '127.0.0.1', resolve));
  churchUrl = `http://localhost:${port}`;
});
afterAll(async () => {
  await browser.close();
  await api.close();
  await new Promise((resolve) => church.close(resolve));
});

describe('a page on another site', () => {
  it('reads a public profile and the verse of the day, and cannot read a login answer', async () => {
    const { profile } = await insertMember(api.dataSource, { profile: { name: 'Priscilla' } });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(churchUrl);
    expect(new URL(page.url()).origin).not.toBe(new URL(api.url).origin);

    const call = (endpoint: string, query: string) =>
      page.evaluate(
        async ({ endpoint, query }) => {
          try {
            const response = await fetch(endpoint, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ query }),
            });
            return { read: true, body: (await response.json()) as unknown };
          } catch {
            return { read: false, body: null };
          }
        },
        { endpoint, query },
      );

    const open = await call(
      `${api.url}/graphql`,
      `{ profile(username: "${profile.username}") { name } verseOfTheDay { ref } }`,
    );
    expect(open.read).toBe(true);
    expect(open.body).toMatchObject({ data: { profile: { name: 'Priscilla' } } });

    const login = await call(
      `${api.url}/graphql`,
      'mutation { login(input: { email: "someone@example.org", password: "not-theirs" }) { __typename } }',
    );
    expect(login).toEqual({ read: false, body: null });
    await context.close();
  });
});

describe('a page on another site, through its visitor’s browser (B14)', () => {
  /** What the browser let the page see of a fetch: the answer's status and body, or nothing. */
  type Seen = { read: true; status: number; body: unknown } | { read: false };

  it('cannot file a report or sign in, and still reads a public query by GET and by POST', async () => {
    const { profile } = await insertMember(api.dataSource, { profile: { name: 'Lydia' } });
    const member = await signUpMember(api);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(churchUrl);

    const send = (init: { url: string; method: string; body?: unknown; headers?: Record<string, string> }) =>
      page.evaluate(async ({ url, method, body, headers }): Promise<Seen> => {
        try {
          const response = await fetch(url, {
            method,
            headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          return { read: true, status: response.status, body: (await response.json()) as unknown };
        } catch {
          return { read: false };
        }
      }, init);
    const graphql = (query: string, variables: Record<string, unknown> = {}) =>
      send({ url: `${api.url}/graphql`, method: 'POST', body: { query, variables } });
    const sessions = () => api.dataSource.getRepository(AuthSessionRecord).countBy({ userId: member.member.user.uid });
    const sessionsBefore = await sessions();

    const report = await graphql('mutation ($input: ReportPageInput!) { reportPage(input: $input) }', {
      input: { username: profile.username, reason: 'spam', note: 'filed by another site' },
    });
    const login = await graphql('mutation ($input: LoginInput!) { login(input: $input) { session { accessToken } } }', {
      input: { email: member.email, password: GOOD_PASSWORD },
    });
    // The server refused before anything ran: no report filed, no session started.
    expect(report).toEqual({ read: false });
    expect(login).toEqual({ read: false });
    expect(await api.dataSource.getRepository(ReportRecord).countBy({ username: profile.username })).toBe(0);
    expect(await sessions()).toBe(sessionsBefore);

    // Signing in straight at the identity service is refused too.
    const direct = await send({
      url: `${api.url}/auth/v1/token?grant_type=password`,
      method: 'POST',
      body: { email: member.email, password: GOOD_PASSWORD },
    });
    expect(direct).toEqual({ read: false });
    expect(await sessions()).toBe(sessionsBefore);

    const query = `{ profile(username: "${profile.username}") { name } }`;
    const byPost = await graphql(query);
    const byGet = await send({
      url: `${api.url}/graphql?query=${encodeURIComponent(query)}`,
      method: 'GET',
      headers: { 'apollo-require-preflight': 'true' },
    });
    for (const answer of [byPost, byGet]) {
      expect(answer).toEqual({ read: true, status: 200, body: { data: { profile: { name: 'Lydia' } } } });
    }
    await context.close();
  });
});

describe('a public query sent by plain GET from a page on another site', () => {
  it('is answered and readable with no custom header, while a mutation by GET is not', async () => {
    const { profile } = await insertMember(api.dataSource, { profile: { name: 'Junia' } });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(churchUrl);
    // What a church's page writes: `fetch(url)`, a simple request the browser sends without a preflight.
    const get = (query: string) =>
      page.evaluate(
        async (url) => {
          try {
            const response = await fetch(url);
            return { read: true, status: response.status, body: (await response.json()) as unknown };
          } catch {
            return { read: false };
          }
        },
        `${api.url}/graphql?query=${encodeURIComponent(query)}`,
      );

    expect(await get(`{ profile(username: "${profile.username}") { name } verseOfTheDay { ref } }`)).toMatchObject({
      read: true,
      status: 200,
      body: { data: { profile: { name: 'Junia' } } },
    });
    expect(await get('mutation { requestPasswordReset(email: "someone@example.org") { message } }')).toEqual({
      read: false,
    });
    await context.close();
  });
});

describe('the served build', () => {
  it('sends every script over 1 KB compressed, brotli when the browser takes it', async () => {
    const assets = path.join(inject('webDistDir'), 'assets');
    const scripts = readdirSync(assets).filter(
      (file) => file.endsWith('.js') && statSync(path.join(assets, file)).size > 1024,
    );
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const original = readFileSync(path.join(assets, script), 'utf8');
      const brotli = await fetch(`${api.url}/assets/${script}`, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(brotli.headers.get('content-encoding'), script).toBe('br');
      expect(brotli.headers.get('vary'), script).toMatch(/accept-encoding/i);
      // fetch decodes the body: what arrives is the script itself.
      expect(await brotli.text(), script).toBe(original);
      const gzip = await fetch(`${api.url}/assets/${script}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(gzip.headers.get('content-encoding'), script).toBe('gzip');
      expect(await gzip.text(), script).toBe(original);
    }
  });

  it('publishes no source maps', () => {
    const assets = path.join(inject('webDistDir'), 'assets');
    const files = readdirSync(assets);
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    for (const file of files.filter((name) => name.endsWith('.js'))) {
      expect(readFileSync(path.join(assets, file), 'utf8'), file).not.toContain('sourceMappingURL');
    }
  });
});
