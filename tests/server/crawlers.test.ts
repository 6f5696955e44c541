import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/src/config.js';
import { PRIVATE_APP_PAGES } from '../../server/src/http/crawlers.js';
import { APP_PAGES } from '../../server/src/http/pages.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { insertMember } from '../support/factories.js';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => {
  await api.close();
});

/** The `<loc>`s of a sitemap or sitemap index. */
async function locations(url: string): Promise<string[]> {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
  return [...(await response.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1] ?? '');
}

describe('robots.txt', () => {
  it('opens public pages, closes the member’s own pages and the APIs, and names the sitemap', async () => {
    const response = await fetch(`${api.url}/robots.txt`);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const lines = (await response.text()).split('\n');
    expect(lines).toContain('Allow: /');
    for (const closed of ['/graphql', '/auth/', '/account', '/profile', '/login', '/saved']) {
      expect(lines).toContain(`Disallow: ${closed}`);
    }
    for (const open of ['/verse', '/@', '/share/']) {
      expect(lines.filter((line) => line.startsWith('Disallow:') && open.startsWith(line.slice(10)))).toEqual([]);
    }
    expect(lines).toContain(`Sitemap: ${api.config.publicUrl}/sitemap.xml`);
    // Every closed page is a page of the app (web/src/app/routes.tsx through http/pages.ts).
    for (const page of PRIVATE_APP_PAGES) expect(APP_PAGES).toContain(page);
  });
});

describe('the sitemap', () => {
  it('lists the pages visitors may see, and none that are private, hidden, banned or being deleted', async () => {
    const hour = 3_600_000;
    const shown = await insertMember(api.dataSource);
    const banEnded = await insertMember(api.dataSource, { user: { bannedUntil: new Date(Date.now() - hour) } });
    const unseen = await Promise.all([
      insertMember(api.dataSource, { profile: { isPublic: false } }),
      insertMember(api.dataSource, { profile: { isActive: false } }),
      insertMember(api.dataSource, { user: { hiddenReason: 'spam', hiddenAt: new Date() } }),
      insertMember(api.dataSource, { user: { bannedUntil: new Date(Date.now() + hour) } }),
      insertMember(api.dataSource, { user: { deletingAt: new Date() } }),
    ]);

    const index = await locations(`${api.url}/sitemap.xml`);
    const base = api.config.publicUrl;
    expect(index).toEqual([`${base}/sitemaps/site.xml`, `${base}/sitemaps/members-1.xml`]);
    expect(await locations(`${base}/sitemaps/site.xml`)).toContain(`${base}/`);
    const members = await locations(`${base}/sitemaps/members-1.xml`);
    expect(members).toContain(`${base}/@${shown.profile.username}`);
    expect(members).toContain(`${base}/@${banEnded.profile.username}`);
    for (const { profile } of unseen) expect(members).not.toContain(`${base}/@${profile.username}`);
    expect((await fetch(`${base}/sitemaps/members-2.xml`)).status).toBe(404);
  });
});

describe('the web app manifest', () => {
  it('names the app and its icons, each a PNG of its size drawn from the logo', async () => {
    const response = await fetch(`${api.url}/manifest.webmanifest`);
    expect(response.headers.get('content-type')).toBe('application/manifest+json; charset=utf-8');
    const etag = response.headers.get('etag') ?? '';
    const manifest = (await response.json()) as {
      name: string;
      start_url: string;
      icons: { src: string; sizes: string; type: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({ name: 'Lampstand', start_url: '/', display: 'standalone' });
    expect(manifest.icons.map((icon) => icon.purpose)).toContain('maskable');
    for (const icon of manifest.icons.filter((each) => each.type === 'image/png')) {
      const png = Buffer.from(await (await fetch(`${api.url}${icon.src}`)).arrayBuffer());
      expect(png.subarray(0, 8).toString('hex'), icon.src).toBe('89504e470d0a1a0a');
      // The IHDR chunk's width and height.
      expect(`${String(png.readUInt32BE(16))}x${String(png.readUInt32BE(20))}`, icon.src).toBe(icon.sizes);
    }
    expect((await fetch(`${api.url}/manifest.webmanifest`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('is linked from every page the web app serves', () => {
    for (const page of ['index.html', 'home.html', 'profile.html']) {
      expect(readFileSync(path.join(projectRoot, 'web', page), 'utf8'), page).toContain(
        '<link rel="manifest" href="/manifest.webmanifest" />',
      );
    }
  });
});
