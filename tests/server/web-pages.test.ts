import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { insertMember } from '../support/factories.js';

// The pages are the web app's own index.html and profile.html; a build changes only their script and
// style tags. The source's entry scripts tell which of the two a page is.
const distDir = mkdtempSync(path.join(tmpdir(), 'lampstand-dist-'));
copyFileSync(path.resolve(import.meta.dirname, '../../web/index.html'), path.join(distDir, 'index.html'));
copyFileSync(path.resolve(import.meta.dirname, '../../web/profile.html'), path.join(distDir, 'profile.html'));
const APP_ENTRY = '/src/main.tsx';
const PUBLIC_PAGE_ENTRY = '/src/public-page.tsx';
mkdirSync(path.join(distDir, 'assets'));
writeFileSync(path.join(distDir, 'assets', 'app-1234.js'), 'console.log("app")');

let api: TestApp;
let withTagManager: TestApp;
beforeAll(async () => {
  api = await startTestApp({ WEB_DIST_DIR: distDir });
  withTagManager = await startTestApp({ WEB_DIST_DIR: distDir, GTM_CONTAINER_ID: 'GTM-TEST123' });
});
afterAll(async () => {
  await api.close();
  await withTagManager.close();
  rmSync(distDir, { recursive: true, force: true });
});

async function page(app: TestApp, pathname: string): Promise<{ status: number; html: string; type: string | null }> {
  const response = await fetch(`${app.url}${pathname}`);
  return { status: response.status, html: await response.text(), type: response.headers.get('content-type') };
}

function meta(html: string, attribute: 'name' | 'property', key: string): string[] {
  const pattern = new RegExp(`<meta ${attribute}="${key}" content="([^"]*)"`, 'g');
  return [...html.matchAll(pattern)].map((match) => match[1] ?? '');
}

function config(html: string): unknown {
  const match = /<script id="lampstand-config" type="application\/json">([^<]*)<\/script>/.exec(html);
  return match ? JSON.parse(match[1] ?? '') : undefined;
}

describe('the two pages of the build', () => {
  it("are the same but for the entry script, so that both get the same head (profile.html is the public page's)", () => {
    const source = (name: string) => readFileSync(path.resolve(import.meta.dirname, '../../web', name), 'utf8');
    expect(source('profile.html')).toContain(PUBLIC_PAGE_ENTRY);
    expect(source('profile.html').replace(PUBLIC_PAGE_ENTRY, APP_ENTRY)).toBe(source('index.html'));
  });
});

describe('a public profile page as crawlers see it', () => {
  it("carries the member's title, description and Open Graph tags in the HTML", async () => {
    const { profile } = await insertMember(api.dataSource, { profile: { name: 'Lydia of Thyatira' } });
    const { status, html, type } = await page(api, `/@${profile.username}`);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/html/);
    expect(html).toContain(`<title>Lydia of Thyatira (@${profile.username}) · Lampstand</title>`);
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(meta(html, 'name', 'description')).toEqual([
      'Lydia of Thyatira’s page on Lampstand, with a Bible verse for every day.',
    ]);
    expect(meta(html, 'property', 'og:title')).toEqual([`Lydia of Thyatira (@${profile.username}) · Lampstand`]);
    expect(meta(html, 'property', 'og:description')).toHaveLength(1);
    expect(meta(html, 'property', 'og:type')).toEqual(['profile']);
    expect(meta(html, 'property', 'og:url')).toEqual([`${api.url}/@${profile.username}`]);
    expect(html).toContain('<div id="root"></div>');
    // The public page's own document, not the whole app.
    expect(html).toContain(PUBLIC_PAGE_ENTRY);
    expect(html).not.toContain(APP_ENTRY);
  });

  it('moves any letter case to the canonical, lower-case address', async () => {
    const { profile } = await insertMember(api.dataSource);
    const moved = await fetch(`${api.url}/@${profile.username.toUpperCase()}?ref=card`, { redirect: 'manual' });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(`/@${profile.username}?ref=card`);
    const { status, html } = await page(api, `/@${profile.username.toUpperCase()}`);
    expect(status).toBe(200);
    expect(meta(html, 'property', 'og:url')).toEqual([`${api.url}/@${profile.username}`]);
  });

  it('sends an address typed without the @ to the member’s page', async () => {
    const { profile } = await insertMember(api.dataSource);
    const moved = await fetch(`${api.url}/${profile.username.toUpperCase()}`, { redirect: 'manual' });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(`/@${profile.username}`);
    const hidden = await insertMember(api.dataSource, { profile: { isPublic: false } });
    expect((await page(api, `/${hidden.profile.username}`)).status).toBe(404);
  });

  it('never answers a file crawlers ask for by name with a member’s page', async () => {
    await insertMember(api.dataSource, { profile: { username: 'robots.txt' } });
    const robots = await fetch(`${api.url}/robots.txt`, { redirect: 'manual' });
    expect(robots.status).toBe(404);
    expect(robots.headers.get('location')).toBeNull();
    expect((await page(api, '/@robots.txt')).status).toBe(200);
  });

  it('escapes a name that looks like markup', async () => {
    const name = `</title><script>alert("x")</script> & 'co'`;
    const { profile } = await insertMember(api.dataSource, { profile: { name } });
    const { html } = await page(api, `/@${profile.username}`);
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('<title>&lt;/title&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;');
    expect(meta(html, 'property', 'og:title')[0]).toContain('&lt;script&gt;');
  });

  it('keeps replacement patterns in a name as text', async () => {
    const name = "Dollar $` $' $& $$ Sign";
    const { profile } = await insertMember(api.dataSource, { profile: { name } });
    const { html } = await page(api, `/@${profile.username}`);
    expect(html).toContain(`<title>Dollar $\` $&#39; $&amp; $$ Sign`);
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(meta(html, 'property', 'og:title')[0]).toContain('Dollar $` $&#39; $&amp; $$ Sign');
  });

  it.each([
    ['private', { isPublic: false }],
    ['inactive', { isActive: false }],
  ])('is a 404 with the app and no member details when the profile is %s', async (_kind, settings) => {
    const { profile } = await insertMember(api.dataSource, { profile: { name: 'Hidden Hannah', ...settings } });
    const { status, html, type } = await page(api, `/@${profile.username}`);
    expect(status).toBe(404);
    expect(type).toMatch(/^text\/html/);
    expect(html).toContain('<div id="root"></div>');
    // The app, which tells the member whose page it is that it is hidden.
    expect(html).toContain(APP_ENTRY);
    expect(html).not.toContain('Hidden Hannah');
    expect(meta(html, 'property', 'og:title')).toEqual([]);
  });

  it('is a 404 for a username nobody has, and a 400 for an undecodable one', async () => {
    expect((await page(api, '/@nobody.here')).status).toBe(404);
    expect((await page(api, '/@%E0%A4%A')).status).toBe(400);
  });
});

describe('the settings the browser reads', () => {
  it('name no tag manager when none is configured', async () => {
    const { status, html } = await page(api, '/');
    expect(status).toBe(200);
    expect(config(html)).toEqual({ gtmContainerId: null, billing: false });
    expect(html).not.toContain('googletagmanager');
  });

  it('name the configured tag manager container on every page, and load no tag themselves', async () => {
    const { profile } = await insertMember(withTagManager.dataSource);
    for (const pathname of ['/', '/playground', `/@${profile.username}`, '/@nobody.here']) {
      const { html } = await page(withTagManager, pathname);
      expect(config(html), pathname).toEqual({ gtmContainerId: 'GTM-TEST123', billing: false });
      expect(html).not.toContain('googletagmanager');
    }
  });

  it('send the app with a 200 for its pages and a 404 for any other address, and assets with a long cache', async () => {
    for (const pathname of ['/', '/signup', '/login', '/profile', '/account/', '/playground']) {
      expect((await page(api, pathname)).status, pathname).toBe(200);
    }
    for (const pathname of ['/some/page', '/nobody.here', '/signup/extra']) {
      const { status, html } = await page(api, pathname);
      expect(status, pathname).toBe(404);
      expect(html, pathname).toContain('<div id="root"></div>');
      expect(html, pathname).toContain(APP_ENTRY);
    }
    const asset = await fetch(`${api.url}/assets/app-1234.js`);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await page(api, '/assets/missing.js')).status).toBe(404);
  });
});
