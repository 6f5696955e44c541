import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkRecord } from '../../server/src/links/link.entity.js';
import { ProfileRecord } from '../../server/src/profiles/profile.entity.js';
import { Theme } from '../../server/src/profiles/appearance.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { insertMember } from '../support/factories.js';
import { VERSE_DAY_SCRIPT, VERSE_DAY_SCRIPT_SOURCE } from '../../server/src/http/verse-day-script.js';

// The pages are the web app's own; the server entry is web/src/ssr.tsx from its source (the
// build's ssr.js is the same module bundled).
const webRoot = path.resolve(import.meta.dirname, '../../web');
const PUBLIC_PAGE_ENTRY = '/src/public-page.tsx';
const builds: string[] = [];

function webBuild(ssr: string): string {
  const buildDir = mkdtempSync(path.join(tmpdir(), 'lampstand-web-'));
  builds.push(buildDir);
  const distDir = path.join(buildDir, 'dist');
  mkdirSync(path.join(distDir, 'assets'), { recursive: true });
  for (const page of ['index.html', 'home.html', 'profile.html']) {
    copyFileSync(path.join(webRoot, page), path.join(distDir, page));
  }
  mkdirSync(path.join(buildDir, 'dist-ssr'));
  writeFileSync(path.join(buildDir, 'dist-ssr', 'ssr.js'), ssr);
  return distDir;
}

const rendering = `export * from ${JSON.stringify(path.join(webRoot, 'src', 'ssr.tsx'))};`;
const failing = `export const PROFILE_PAGE_QUERY = 'query ($username: String!) { profile(username: $username) { name } }';
export async function renderProfile() { throw new Error('the rendering failed on purpose'); }`;
const logged: Record<string, unknown>[] = [];
let api: TestApp;
let broken: TestApp;

beforeAll(async () => {
  api = await startTestApp({ WEB_DIST_DIR: webBuild(rendering) });
  broken = await startTestApp(
    { WEB_DIST_DIR: webBuild(failing), LOG_LEVEL: 'error' },
    { logStream: { write: (line) => logged.push(JSON.parse(line) as Record<string, unknown>) } },
  );
  // The first rendering imports web/src/ssr.tsx through the tests' transform, which can pass the
  // renderer's 5 s deadline on a busy machine (the build's ssr.js loads in milliseconds): a page is
  // asked for until it comes rendered, once the import has finished.
  const { profile } = await insertMember(api.dataSource);
  for (let attempt = 0; attempt < 5; attempt++) {
    const { html } = await page(api, `/@${profile.username}`);
    if (!html.includes('<div id="root"></div>')) break;
  }
});
afterAll(async () => {
  await api.close();
  await broken.close();
  for (const buildDir of builds) rmSync(buildDir, { recursive: true, force: true });
});

async function page(
  app: TestApp,
  pathname: string,
): Promise<{ status: number; html: string; csp: Map<string, string[]> }> {
  const response = await fetch(`${app.url}${pathname}`);
  // The Content-Security-Policy's directives, each with its sources.
  const csp = new Map(
    (response.headers.get('content-security-policy') ?? '')
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name = '', ...sources]): [string, string[]] => [name, sources]),
  );
  return { status: response.status, html: await response.text(), csp };
}

function pageState(html: string): unknown {
  const state = /<script id="lampstand-page" type="application\/json">([^<]*)<\/script>/.exec(html);
  return state ? JSON.parse(state[1] ?? 'null') : undefined;
}

async function addLink(uid: string, title: string, url: string): Promise<string> {
  const id = crypto.randomUUID();
  await api.dataSource.getRepository(LinkRecord).insert({
    id,
    uid,
    title,
    url,
    position: 0,
    hidden: false,
    createdAt: new Date(),
  });
  return id;
}

describe('a member’s page as the server renders it', () => {
  it('carries the name, bio, links through /l/<id>, the verse and the look in the HTML', async () => {
    const { profile, user } = await insertMember(api.dataSource, {
      profile: { name: 'Lydia of Thyatira', bio: 'Seller of purple.', theme: Theme.darkTheme },
    });
    const linkId = await addLink(user.uid, 'My shop', 'https://www.purple.example/shop');
    const { status, html, csp } = await page(api, `/@${profile.username}`);
    expect(status).toBe(200);
    expect(html).toContain(PUBLIC_PAGE_ENTRY);
    expect(html).not.toContain('<div id="root"></div>');
    expect(html).toMatch(/<h1 id="profile-name"[^>]*>Lydia of Thyatira<\/h1>/);
    expect(html).toContain('<p class="profile-bio">Seller of purple.</p>');
    expect(html).toContain(`href="/l/${linkId}"`);
    expect(html).toContain('<span class="plink-title">My shop</span>');
    expect(html).toContain('<span class="plink-host">purple.example</span>');
    expect(html).toMatch(/<blockquote class="verse-text"><p>[^<]{10,}<\/p><\/blockquote>/);
    expect(html).toMatch(/<figcaption class="verse-ref">[^<]+<!-- --> <span class="translation">KJV<\/span>/);
    expect(html).toContain('class="profile theme-darkTheme layout-row button-normalButton"');
    const today = new Date();
    const dayAfter = (by: number) => new Date(today.getTime() + by * 86_400_000).toISOString().slice(0, 10);
    const verse = { ref: expect.any(String), text: expect.any(String), translation: 'KJV' };
    // The verses of the days around UTC's, from which the page picks the visitor's own day.
    expect(pageState(html)).toEqual({
      username: profile.username,
      day: dayAfter(0),
      translation: 'KJV',
      versePinned: false,
      days: { [dayAfter(-1)]: verse, [dayAfter(1)]: verse },
    });
    // One inline script, the one that picks that day, allowed by its hash alone: no other inline
    // script, and no 'unsafe-inline'.
    const inline = [...html.matchAll(/<script(?![^>]*type="application\/json")(?![^>]*src=)[^>]*>([^<]*)<\/script>/g)];
    expect(inline.map((script) => script[1])).toEqual([VERSE_DAY_SCRIPT]);
    expect(csp.get('script-src')).toEqual([VERSE_DAY_SCRIPT_SOURCE, "'self'"]);
  });

  it('sends no other day for a verse its owner pinned', async () => {
    const { profile } = await insertMember(api.dataSource, {
      user: { stripeRole: 'plus' },
      profile: {
        verseId: 'John.3.16',
        verseRef: 'John 3:16',
        verseText: 'For God so loved…',
        versePinned: true,
        verseDay: '2028-01-01',
      },
    });
    const { html } = await page(api, `/@${profile.username}`);
    expect(pageState(html)).not.toHaveProperty('days');
  });

  it('carries a bio, name and link that look like markup as text', async () => {
    const { profile, user } = await insertMember(api.dataSource, {
      profile: { name: '<b>Bold</b> & "quoted"', bio: '<script>alert("bio")</script><img src=x onerror=alert(1)>' },
    });
    await addLink(user.uid, '</a><script>alert("link")</script>', 'https://example.org/?q=<x>');
    const { status, html } = await page(api, `/@${profile.username}`);
    expect(status).toBe(200);
    expect(html).toContain(
      '<p class="profile-bio">&lt;script&gt;alert(&quot;bio&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</p>',
    );
    expect(html).toContain('&lt;b&gt;Bold&lt;/b&gt; &amp; &quot;quoted&quot;</h1>');
    expect(html).toContain('&lt;/a&gt;&lt;script&gt;alert(&quot;link&quot;)&lt;/script&gt;');
    expect(html).not.toMatch(/<script>alert|<img src=x|<b>Bold/);
  });

  it('shows an edit on the next load', async () => {
    const { profile } = await insertMember(api.dataSource, { profile: { bio: 'Before.' } });
    expect((await page(api, `/@${profile.username}`)).html).toContain('Before.');
    // Kept: the same rendering again.
    expect((await page(api, `/@${profile.username}`)).html).toContain('Before.');
    await api.dataSource.getRepository(ProfileRecord).update({ uid: profile.uid }, { bio: 'After.' });
    const { html } = await page(api, `/@${profile.username}`);
    expect(html).toContain('After.');
    expect(html).not.toContain('Before.');
  });

  it('keeps the 404 for a private, suspended or unknown page, with nothing of the member in it', async () => {
    const hidden = await insertMember(api.dataSource, { profile: { name: 'Secret Sam', isPublic: false } });
    const suspended = await insertMember(api.dataSource, { profile: { name: 'Gone Gaius', isActive: false } });
    for (const username of [hidden.profile.username, suspended.profile.username, 'nobody.here']) {
      const { status, html } = await page(api, `/@${username}`);
      expect(status, username).toBe(404);
      expect(html).toContain('<div id="root"></div>');
      expect(html).not.toMatch(/Secret Sam|Gone Gaius|lampstand-page/);
    }
  });

  it('sends the page for the browser to render when the rendering fails, and logs why', async () => {
    const { profile } = await insertMember(broken.dataSource, { profile: { name: 'Tabitha' } });
    const { status, html } = await page(broken, `/@${profile.username}`);
    expect(status).toBe(200);
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain(PUBLIC_PAGE_ENTRY);
    expect(html).toContain('<title>Tabitha');
    expect(html).not.toContain('lampstand-page');
    expect(logged).toContainEqual(
      expect.objectContaining({
        msg: 'a profile page could not be rendered; the browser renders it',
        err: expect.objectContaining({ message: 'the rendering failed on purpose' }),
      }),
    );
  });
});
