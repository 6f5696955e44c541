import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { brotliCompressSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verseCalendar } from '../../server/src/verses/calendar.js';
import { todayIn } from '../../server/src/verses/day.js';
import { readKjv } from '../../server/src/db/verse-texts/kjv.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { insertMember } from '../support/factories.js';

// The pages are the web app's own index.html, home.html and profile.html; a build changes only their
// script and style tags. The source's entry scripts tell which of them a page is.
const webRoot = path.resolve(import.meta.dirname, '../../web');
const PAGES = ['index.html', 'home.html', 'profile.html'];
const APP_ENTRY = '/src/main.tsx';
const HOME_ENTRY = '/src/home.tsx';
const PUBLIC_PAGE_ENTRY = '/src/public-page.tsx';
const builds: string[] = [];

/**
 * A web build in a folder of its own: `dist/` with the pages, and beside it `dist-ssr/ssr.js` (the
 * server's rendering of the home page) when `ssr` gives that module's source.
 */
function webBuild(ssr?: string): string {
  const buildDir = mkdtempSync(path.join(tmpdir(), 'lampstand-web-'));
  builds.push(buildDir);
  const distDir = path.join(buildDir, 'dist');
  mkdirSync(path.join(distDir, 'assets'), { recursive: true });
  for (const page of PAGES) copyFileSync(path.join(webRoot, page), path.join(distDir, page));
  writeFileSync(path.join(distDir, 'assets', 'app-1234.js'), 'console.log("app")');
  writeFileSync(path.join(distDir, 'assets', 'app-1234.js.br'), brotliCompressSync('console.log("app")'));
  if (ssr !== undefined) {
    mkdirSync(path.join(buildDir, 'dist-ssr'));
    writeFileSync(path.join(buildDir, 'dist-ssr', 'ssr.js'), ssr);
  }
  return distDir;
}

const distDir = webBuild();
let api: TestApp;
let withTagManager: TestApp;
beforeAll(async () => {
  api = await startTestApp({ WEB_DIST_DIR: distDir });
  withTagManager = await startTestApp({
    WEB_DIST_DIR: distDir,
    GTM_CONTAINER_ID: 'GTM-TEST123',
    SUPPORT_EMAIL: 'help@lampstand.example',
  });
});
afterAll(async () => {
  await api.close();
  await withTagManager.close();
  for (const buildDir of builds) rmSync(buildDir, { recursive: true, force: true });
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

describe('the pages of the build', () => {
  it("are the same but for the entry script, so that all get the same head (profile.html is the public page's, home.html the rendered home page's)", () => {
    const source = (name: string) => readFileSync(path.join(webRoot, name), 'utf8');
    expect(source('profile.html')).toContain(PUBLIC_PAGE_ENTRY);
    expect(source('profile.html').replace(PUBLIC_PAGE_ENTRY, APP_ENTRY)).toBe(source('index.html'));
    expect(source('home.html')).toContain(HOME_ENTRY);
    expect(source('home.html').replace(HOME_ENTRY, APP_ENTRY)).toBe(source('index.html'));
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
    await insertMember(api.dataSource, { profile: { username: 'ads.txt' } });
    const robots = await fetch(`${api.url}/robots.txt`, { redirect: 'manual' });
    expect(robots.status).toBe(200);
    expect(await robots.text()).toMatch(/^User-agent: \*/);
    const ads = await fetch(`${api.url}/ads.txt`, { redirect: 'manual' });
    expect(ads.status).toBe(404);
    expect(ads.headers.get('location')).toBeNull();
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
    expect(config(html)).toEqual({ gtmContainerId: null, billing: false, supportEmail: null });
    expect(html).not.toContain('googletagmanager');
  });

  it('name the configured tag manager container and support address on every page, and load no tag themselves', async () => {
    const { profile } = await insertMember(withTagManager.dataSource);
    for (const pathname of ['/', '/playground', `/@${profile.username}`, '/@nobody.here']) {
      const { html } = await page(withTagManager, pathname);
      expect(config(html), pathname).toEqual({
        gtmContainerId: 'GTM-TEST123',
        billing: false,
        supportEmail: 'help@lampstand.example',
      });
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
    const asset = await fetch(`${api.url}/assets/app-1234.js`, { headers: { 'accept-encoding': 'br' } });
    expect(asset.headers.get('cache-control')).toContain('immutable');
    // The build's compressed copy, found beside the file (the assets share one route).
    expect(asset.headers.get('content-encoding')).toBe('br');
    expect(await asset.text()).toBe('console.log("app")');
    expect((await page(api, '/assets/missing.js')).status).toBe(404);
    const pageFile = await fetch(`${api.url}/index.html`);
    expect(pageFile.status).toBe(200);
    expect(pageFile.headers.get('cache-control')).toBe('no-cache');
  });
});

describe('the home page as the server renders it', () => {
  // The web app's own server entry, from its source (the build's ssr.js is the same module bundled).
  const rendering = `export * from ${JSON.stringify(path.join(webRoot, 'src', 'ssr.tsx'))};`;
  const failing = `export async function renderHome() { throw new Error('the rendering failed on purpose'); }`;
  const logged: Record<string, unknown>[] = [];
  let rendered: TestApp;
  let broken: TestApp;
  beforeAll(async () => {
    rendered = await startTestApp({ WEB_DIST_DIR: webBuild(rendering) });
    broken = await startTestApp(
      { WEB_DIST_DIR: webBuild(failing), LOG_LEVEL: 'error' },
      { logStream: { write: (line) => logged.push(JSON.parse(line) as Record<string, unknown>) } },
    );
  });
  afterAll(async () => {
    await rendered.close();
    await broken.close();
  });

  it("carries the heading and today's verse (UTC, KJV) in the HTML, in the home page's own document", async () => {
    const days = [new Date()];
    const { status, html } = await page(rendered, '/');
    days.push(new Date());
    expect(status).toBe(200);
    expect(html).toContain('<h1 id="landing-title" tabindex="-1">A verse for today, on a page of your own.</h1>');
    const kjv = new Map(readKjv().map((verse) => [verse.id, verse]));
    const verses = days.map((day) => kjv.get(verseCalendar[todayIn('UTC', day).monthDay] ?? ''));
    const verse = verses.find((candidate) => candidate && html.includes(`<p>${candidate.text}</p>`));
    expect(verse, 'no verse of the day in the page').toBeDefined();
    expect(html).toContain(`${verse?.ref}<!-- --> <span class="translation">KJV</span>`);
    expect(html).toContain(HOME_ENTRY);
    expect(html).not.toContain('<div id="root"></div>');
    // The CSP allows no inline script: the page carries data only.
    expect([...html.matchAll(/<script(?![^>]*type="application\/json")(?![^>]*src=)[^>]*>/g)]).toEqual([]);
  });

  it('keeps the settings, the card for link previews, and the state the app takes the page over with', async () => {
    const { html } = await page(rendered, '/');
    expect(config(html)).toEqual({ gtmContainerId: null, billing: false, supportEmail: null });
    const image = `${rendered.url}/share/verse-of-the-day/${new Date().toISOString().slice(0, 10)}.png`;
    expect(meta(html, 'property', 'og:image')).toEqual([image]);
    expect(meta(html, 'name', 'twitter:image')).toEqual([image]);
    const state = /<script id="lampstand-state" type="application\/json">([^<]*)<\/script>/.exec(html);
    const { path: statePath, apollo } = JSON.parse(state?.[1] ?? '{}') as { path?: string; apollo?: object };
    expect(statePath).toBe('/');
    expect(JSON.stringify(apollo)).toContain('verseOfTheDay');
  });

  it('renders only the home page', async () => {
    for (const pathname of ['/signup', '/verse', '/nobody.here']) {
      const { html } = await page(rendered, pathname);
      expect(html, pathname).toContain('<div id="root"></div>');
      expect(html, pathname).not.toContain('lampstand-state');
    }
  });

  it('sends the app shell when the rendering fails, and logs why', async () => {
    const { status, html } = await page(broken, '/');
    expect(status).toBe(200);
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain(APP_ENTRY);
    expect(html).not.toContain('lampstand-state');
    expect(config(html)).toEqual({ gtmContainerId: null, billing: false, supportEmail: null });
    expect(meta(html, 'property', 'og:image')).toHaveLength(1);
    expect(logged).toContainEqual(
      expect.objectContaining({
        msg: 'the home page could not be rendered; the app shell was sent',
        err: expect.objectContaining({ message: 'the rendering failed on purpose' }),
      }),
    );
  });
});
