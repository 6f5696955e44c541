import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { freePort, startTestApp } from '../support/app.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';
import { insertMember } from '../support/factories.js';

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
