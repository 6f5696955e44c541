import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkRecord } from '../../server/src/links/link.entity.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { insertMember } from '../support/factories.js';
import { signUpMember } from '../support/members.js';

// The page's own documents from the web app's source, without a server rendering: enough for the
// `<head>` of `/@username`, which names the oEmbed address.
const webRoot = path.resolve(import.meta.dirname, '../../web');
let buildDir: string;
let api: TestApp;

beforeAll(async () => {
  buildDir = mkdtempSync(path.join(tmpdir(), 'lampstand-web-'));
  const distDir = path.join(buildDir, 'dist');
  mkdirSync(path.join(distDir, 'assets'), { recursive: true });
  for (const page of ['index.html', 'profile.html']) copyFileSync(path.join(webRoot, page), path.join(distDir, page));
  api = await startTestApp({ WEB_DIST_DIR: distDir });
});
afterAll(async () => {
  await api.close();
  rmSync(buildDir, { recursive: true, force: true });
});

interface Oembed {
  version: string;
  type: string;
  provider_name: string;
  provider_url: string;
  title: string;
  author_name: string;
  author_url: string;
  html: string;
  width: number;
  height: number;
}

const get = (pathname: string, headers: Record<string, string> = {}) => fetch(`${api.url}${pathname}`, { headers });
const oembedOf = (pageUrl: string, extra = '') => get(`/oembed?url=${encodeURIComponent(pageUrl)}${extra}`);

async function cachedAnswers(): Promise<number> {
  const metric = await api.app.metrics.registry.getSingleMetric('lampstand_graphql_cached_answers_total')?.get();
  return metric?.values[0]?.value ?? 0;
}

async function addLink(uid: string, title: string, hidden = false): Promise<string> {
  const id = crypto.randomUUID();
  await api.dataSource
    .getRepository(LinkRecord)
    .insert({ id, uid, title, url: 'https://church.example/', position: 0, hidden, createdAt: new Date() });
  return id;
}

describe('oEmbed', () => {
  it('answers a page address with a sandboxed frame of its compact view', async () => {
    const { profile } = await insertMember(api.dataSource, { profile: { name: 'Priscilla' } });
    const pageUrl = `${api.url}/@${profile.username}`;
    const response = await oembedOf(pageUrl, '&format=json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await response.json()) as Oembed;
    expect(body).toMatchObject({
      version: '1.0',
      type: 'rich',
      provider_name: 'Lampstand',
      provider_url: api.url,
      title: `Priscilla (@${profile.username})`,
      author_name: 'Priscilla',
      author_url: pageUrl,
      width: 360,
      height: 480,
    });
    expect(body.html).toMatch(/^<iframe [^>]*><\/iframe>$/);
    expect(body.html).toContain(`src="${api.url}/embed/@${profile.username}"`);
    expect(body.html).toContain('sandbox="allow-popups allow-popups-to-escape-sandbox');
    expect(body.html).not.toContain('allow-scripts');
    expect(body.html).toContain('width="360" height="480"');
  });

  it('keeps within the size the consumer asks for, and takes a trailing slash', async () => {
    const { profile } = await insertMember(api.dataSource);
    const body = (await (
      await oembedOf(`${api.url}/@${profile.username}/`, '&maxwidth=300&maxheight=250')
    ).json()) as Oembed;
    expect(body).toMatchObject({ width: 300, height: 250 });
    expect(body.html).toContain('width="300" height="250"');
  });

  it('offers JSON only: 501 for XML', async () => {
    const { profile } = await insertMember(api.dataSource);
    const response = await oembedOf(`${api.url}/@${profile.username}`, '&format=xml');
    expect(response.status).toBe(501);
  });

  it('answers 404 for an unknown, private, hidden or banned page, and for addresses not on this site', async () => {
    const hidden = await insertMember(api.dataSource, { user: { hiddenReason: 'spam', hiddenAt: new Date() } });
    const banned = await insertMember(api.dataSource, { user: { bannedUntil: new Date(Date.now() + 86_400_000) } });
    const closed = await insertMember(api.dataSource, { profile: { isPublic: false } });
    const open = await insertMember(api.dataSource);
    for (const address of [
      `${api.url}/@nobody-here-at-all`,
      `${api.url}/@${hidden.profile.username}`,
      `${api.url}/@${banned.profile.username}`,
      `${api.url}/@${closed.profile.username}`,
      `https://elsewhere.example/@${open.profile.username}`,
      `${api.url}/settings`,
      `${api.url}/@${open.profile.username}/more`,
      'not an address',
    ]) {
      const response = await oembedOf(address);
      expect(response.status, address).toBe(404);
    }
    expect((await get('/oembed')).status).toBe(400);
    expect((await oembedOf(`${api.url}/@${open.profile.username}`)).status).toBe(200);
  });

  it('is named in the head of the page', async () => {
    const { profile } = await insertMember(api.dataSource);
    const pageUrl = `${api.url}/@${profile.username}`;
    const html = await (await get(`/@${profile.username}`)).text();
    const href = `${api.url}/oembed?url=${encodeURIComponent(pageUrl)}&amp;format=json`;
    expect(html).toContain(`<link rel="alternate" type="application/json+oembed" href="${href}"`);
  });
});

describe('the embeds', () => {
  it("show a page's photo or initial, name and shown links, counted through /l/, with no script", async () => {
    const { profile } = await insertMember(api.dataSource, { profile: { name: 'Lydia', bio: 'Seller of purple' } });
    const shown = await addLink(profile.uid, 'Our church');
    await addLink(profile.uid, 'Secret draft', true);
    const response = await get(`/embed/@${profile.username}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<h1>Lydia</h1>');
    expect(html).toContain('Seller of purple');
    expect(html).toContain(`href="/l/${shown}"`);
    expect(html).not.toContain('Secret draft');
    expect(html).toContain('<base target="_blank" />');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('googletagmanager');
  });

  it('answer 404 for a page visitors may not see', async () => {
    const closed = await insertMember(api.dataSource, { profile: { isActive: false } });
    expect((await get(`/embed/@${closed.profile.username}`)).status).toBe(404);
    expect((await get('/embed/@nobody-here-at-all')).status).toBe(404);
  });

  it('show the verse of the day in the theme and translation asked for', async () => {
    const today = await api.graphql<{ verseOfTheDay: { text: string; ref: string } }>(
      '{ verseOfTheDay(translation: WEB) { text ref } }',
    );
    const verse = today.data?.verseOfTheDay;
    expect(verse).toBeDefined();
    const response = await get('/embed/verse?theme=dark&translation=web');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('World English Bible');
    expect(html).toContain('color-scheme: dark');
    expect(html).toContain(verse?.ref ?? 'no verse');
    const light = await (await get('/embed/verse')).text();
    expect(light).toContain('King James Version');
    expect(light).toContain('color-scheme: light');
  });
});

describe('framing and caching', () => {
  it('let any site frame the embeds, and no other route', async () => {
    const { profile } = await insertMember(api.dataSource);
    for (const pathname of [`/embed/@${profile.username}`, '/embed/verse?theme=light&translation=kjv']) {
      const response = await get(pathname);
      expect(response.status, pathname).toBe(200);
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy, pathname).toContain('frame-ancestors *');
      expect(policy, pathname).not.toContain("frame-ancestors 'none'");
      expect(policy, pathname).toContain("default-src 'none'");
      expect(response.headers.get('x-frame-options'), pathname).toBeNull();
    }
    for (const pathname of [`/@${profile.username}`, '/', '/verse', `/oembed?url=${api.url}/@${profile.username}`]) {
      const response = await get(pathname);
      expect(response.headers.get('content-security-policy'), pathname).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-frame-options'), pathname).toBe('DENY');
    }
  });

  it('set no cookie, and are public answers revalidated by their ETag', async () => {
    const { profile } = await insertMember(api.dataSource);
    for (const pathname of [
      `/embed/@${profile.username}`,
      '/embed/verse',
      `/oembed?url=${encodeURIComponent(`${api.url}/@${profile.username}`)}`,
    ]) {
      const response = await get(pathname);
      expect(response.status, pathname).toBe(200);
      expect(response.headers.get('set-cookie'), pathname).toBeNull();
      expect(response.headers.get('cache-control'), pathname).toBe('public, max-age=0, must-revalidate');
      const etag = response.headers.get('etag');
      expect(etag, pathname).toMatch(/^"[\w-]+"$/);
      const again = await get(pathname, { 'if-none-match': etag ?? '' });
      expect(again.status, pathname).toBe(304);
      expect(await again.text(), pathname).toBe('');
    }
  });

  it('are kept, and dropped when the member edits the page', async () => {
    const { member, session } = await signUpMember(api);
    const pathname = `/embed/@${member.profile.username}`;
    const first = await get(pathname);
    const etag = first.headers.get('etag') ?? '';
    const html = await first.text();
    const oembedUrl = `${api.url}/@${member.profile.username}`;
    expect(((await (await oembedOf(oembedUrl)).json()) as Oembed).author_name).toBe(member.profile.name);
    // Read until a read is served from the cache (the turn of a minute empties it).
    await expect
      .poll(async () => {
        const before = await cachedAnswers();
        const again = await (await get(pathname)).text();
        return (await cachedAnswers()) > before && again === html;
      })
      .toBe(true);

    const update = await api.graphql(
      'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { name } }',
      { input: { name: 'Dorcas' } },
      { token: session.accessToken },
    );
    expect(update.errors).toBeUndefined();
    const after = await get(pathname, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(await after.text()).toContain('<h1>Dorcas</h1>');
    expect(((await (await oembedOf(oembedUrl)).json()) as Oembed).author_name).toBe('Dorcas');
  });
});
