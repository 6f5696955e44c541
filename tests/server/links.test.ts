import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRecord } from '../../server/src/members/user.entity.js';
import { LinkClickDayRecord, LinkRecord, PageViewDayRecord } from '../../server/src/links/link.entity.js';
import { ProfileRecord } from '../../server/src/profiles/profile.entity.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { SignedUpMember } from '../support/members.js';
import { firstError, signUpMember } from '../support/members.js';

// Pages are counted where the server sends them; the web app's own index.html stands in for a build.
const distDir = mkdtempSync(path.join(tmpdir(), 'lampstand-dist-'));
copyFileSync(path.resolve(import.meta.dirname, '../../web/index.html'), path.join(distDir, 'index.html'));
mkdirSync(path.join(distDir, 'assets'));

let api: TestApp;
beforeAll(async () => {
  // Behind a proxy on loopback, so that a test can be visitors at several addresses.
  api = await startTestApp({ AUTH_RATE_LIMIT_OTP: '1000', WEB_DIST_DIR: distDir, TRUST_PROXY: 'loopback' });
});
afterAll(async () => {
  await api.close();
  rmSync(distDir, { recursive: true, force: true });
});

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const LINK_FIELDS = 'id title url icon hidden';
const ADD = `mutation ($input: LinkInput!) { addLink(input: $input) { ${LINK_FIELDS} } }`;
const UPDATE = `mutation ($id: ID!, $input: UpdateLinkInput!) { updateLink(id: $id, input: $input) { ${LINK_FIELDS} } }`;
const REMOVE = `mutation ($id: ID!) { removeLink(id: $id) { id } }`;
const REORDER = `mutation ($ids: [ID!]!) { reorderLinks(ids: $ids) { id title } }`;
const OWN = `{ me { profile { links { ${LINK_FIELDS} } } } }`;
const PUBLIC = `query ($username: String!) { profile(username: $username) { links { id title url icon } } }`;

interface Link {
  id: string;
  title: string;
  url: string;
  icon: string;
  hidden: boolean;
}

async function add(member: SignedUpMember, input: Record<string, unknown>): Promise<Link> {
  const response = await api.graphql<{ addLink: Link }>(ADD, { input }, { token: member.session.accessToken });
  expect(response.errors).toBeUndefined();
  const link = response.data?.addLink;
  if (!link) throw new Error('addLink answered no link');
  return link;
}

async function publicLinks(member: SignedUpMember): Promise<{ id: string; title: string }[] | undefined> {
  const response = await api.graphql<{ profile: { links: Link[] } | null }>(PUBLIC, {
    username: member.member.profile.username,
  });
  return response.data?.profile?.links;
}

/** A visitor: an address (sent through the proxy header) and a browser. */
interface Visitor {
  address?: string;
  userAgent?: string;
  headers?: Record<string, string>;
}

function visitorHeaders({
  address = '198.51.100.7',
  userAgent = BROWSER,
  headers = {},
}: Visitor): Record<string, string> {
  return { 'user-agent': userAgent, 'x-forwarded-for': address, ...headers };
}

function follow(id: string, visitor: Visitor = {}): Promise<Response> {
  return fetch(`${api.url}/l/${id}`, { redirect: 'manual', headers: visitorHeaders(visitor) });
}

function view(member: SignedUpMember, visitor: Visitor = {}): Promise<Response> {
  return fetch(`${api.url}/@${member.member.profile.username}`, { headers: visitorHeaders(visitor) });
}

describe('links', () => {
  it('are added, shown to visitors in order with their icons, and normalised', async () => {
    const member = await signUpMember(api);
    const youtube = await add(member, { title: '  My   sermons ', url: 'https://www.YouTube.com/@grace' });
    const church = await add(member, { title: 'Our church', url: 'example.org/visit' });
    const mail = await add(member, { title: 'Write to me', url: 'mailto:grace@example.com' });
    expect(youtube).toMatchObject({ title: 'My sermons', url: 'https://www.youtube.com/@grace', icon: 'youtube' });
    expect(church).toMatchObject({ url: 'https://example.org/visit', icon: 'link', hidden: false });
    expect(mail.icon).toBe('email');
    expect(await publicLinks(member)).toEqual([
      { id: youtube.id, title: 'My sermons', url: 'https://www.youtube.com/@grace', icon: 'youtube' },
      { id: church.id, title: 'Our church', url: 'https://example.org/visit', icon: 'link' },
      { id: mail.id, title: 'Write to me', url: 'mailto:grace@example.com', icon: 'email' },
    ]);
  });

  it.each([
    ['javascript:alert(1)', 'input.url'],
    ['JavaScript:alert(document.cookie)', 'input.url'],
    ['data:text/html,<script>alert(1)</script>', 'input.url'],
    ['ftp://example.org/file', 'input.url'],
    ['https://user:secret@example.org/', 'input.url'],
    ['not a url at all', 'input.url'],
    [`https://example.org/${'a'.repeat(2100)}`, 'input.url'],
  ])('refuses the address %s with BAD_USER_INPUT on its field, and adds nothing', async (url, field) => {
    const member = await signUpMember(api);
    const response = await api.graphql(ADD, { input: { title: 'Bad', url } }, { token: member.session.accessToken });
    expect(firstError(response)).toMatchObject({ code: 'BAD_USER_INPUT', field });
    expect(await api.dataSource.getRepository(LinkRecord).countBy({ uid: member.member.user.uid })).toBe(0);
  });

  it('needs a title of 1 to 80 characters', async () => {
    const member = await signUpMember(api);
    const token = member.session.accessToken;
    for (const title of ['   ', 'x'.repeat(81)]) {
      const response = await api.graphql(ADD, { input: { title, url: 'https://example.org' } }, { token });
      expect(firstError(response)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.title' });
    }
    expect((await add(member, { title: '🙏'.repeat(80), url: 'https://example.org' })).title).toHaveLength(160);
  });

  it('stops at 50 links a page with LIMIT_REACHED', async () => {
    const member = await signUpMember(api);
    const now = new Date();
    await api.dataSource.getRepository(LinkRecord).insert(
      Array.from({ length: 50 }, (_unused, position) => ({
        id: crypto.randomUUID(),
        uid: member.member.user.uid,
        title: `Link ${position}`,
        url: 'https://example.org/',
        position,
        hidden: false,
        createdAt: now,
      })),
    );
    const response = await api.graphql(
      ADD,
      { input: { title: 'One more', url: 'https://example.org/more' } },
      { token: member.session.accessToken },
    );
    expect(firstError(response)).toMatchObject({ code: 'LIMIT_REACHED', limit: 50 });
    expect(await api.dataSource.getRepository(LinkRecord).countBy({ uid: member.member.user.uid })).toBe(50);
  });

  it('are edited, hidden from visitors (not from their owner), reordered and removed', async () => {
    const member = await signUpMember(api);
    const token = member.session.accessToken;
    const [a, b, c] = [
      await add(member, { title: 'A', url: 'https://a.example.org' }),
      await add(member, { title: 'B', url: 'https://b.example.org' }),
      await add(member, { title: 'C', url: 'https://c.example.org' }),
    ];
    const edited = await api.graphql<{ updateLink: Link }>(
      UPDATE,
      { id: b.id, input: { title: 'Bee', url: 'https://open.spotify.com/show/1', hidden: true } },
      { token },
    );
    expect(edited.data?.updateLink).toMatchObject({ title: 'Bee', icon: 'spotify', hidden: true });
    expect((await publicLinks(member))?.map((link) => link.title)).toEqual(['A', 'C']);
    const own = await api.graphql<{ me: { profile: { links: Link[] } } }>(OWN, {}, { token });
    expect(own.data?.me.profile.links.map((link) => link.title)).toEqual(['A', 'Bee', 'C']);

    const reordered = await api.graphql<{ reorderLinks: Link[] }>(REORDER, { ids: [c.id, a.id, b.id] }, { token });
    expect(reordered.data?.reorderLinks.map((link) => link.title)).toEqual(['C', 'A', 'Bee']);
    expect((await publicLinks(member))?.map((link) => link.title)).toEqual(['C', 'A']);

    for (const ids of [
      [c.id, a.id],
      [c.id, a.id, b.id, b.id],
      [c.id, a.id, crypto.randomUUID()],
    ]) {
      const refused = await api.graphql(REORDER, { ids }, { token });
      expect(firstError(refused)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'ids' });
    }

    const removed = await api.graphql<{ removeLink: { id: string }[] }>(REMOVE, { id: a.id }, { token });
    expect(removed.data?.removeLink.map((link) => link.id)).toEqual([c.id, b.id]);
    expect((await publicLinks(member))?.map((link) => link.title)).toEqual(['C']);
  });

  it("are their owner's alone: another member can neither change nor remove them", async () => {
    const owner = await signUpMember(api);
    const other = await signUpMember(api);
    const link = await add(owner, { title: 'Mine', url: 'https://example.org' });
    const token = other.session.accessToken;
    const changed = await api.graphql(UPDATE, { id: link.id, input: { title: 'Yours' } }, { token });
    expect(firstError(changed)).toMatchObject({ code: 'NOT_FOUND' });
    expect(firstError(await api.graphql(REMOVE, { id: link.id }, { token }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(firstError(await api.graphql(REORDER, { ids: [link.id] }, { token }))).toMatchObject({
      code: 'BAD_USER_INPUT',
    });
    expect(firstError(await api.graphql(ADD, { input: { title: 'x', url: 'https://example.org' } }))).toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    expect((await publicLinks(owner))?.map((each) => each.title)).toEqual(['Mine']);
  });
});

describe('following a link through /l/<id>', () => {
  it('redirects to its address and counts the click once a day per visitor, but not for bots or prefetches', async () => {
    const member = await signUpMember(api);
    const link = await add(member, { title: 'Church', url: 'https://example.org/church' });
    const response = await follow(link.id);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://example.org/church');
    expect(response.headers.get('set-cookie')).toBeNull();
    await follow(link.id);
    // Another browser at the same address, and the same browser at another address, are other visitors.
    await follow(link.id, { userAgent: `${BROWSER} Edg/131.0` });
    await follow(link.id, { address: '203.0.113.9' });
    await follow(link.id, { userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
    const prefetches: Record<string, string>[] = [
      { 'sec-purpose': 'prefetch' },
      { purpose: 'prefetch' },
      { 'x-moz': 'prefetch' },
    ];
    for (const prefetch of prefetches) {
      const prefetched = await follow(link.id, { address: '192.0.2.44', headers: prefetch });
      expect(prefetched.status).toBe(302);
    }
    const rows = await api.dataSource.getRepository(LinkClickDayRecord).findBy({ linkId: link.id });
    expect(rows).toEqual([
      { linkId: link.id, uid: member.member.user.uid, day: new Date().toISOString().slice(0, 10), clicks: 3 },
    ]);
  });

  it('does not count a HEAD request, which follows nothing', async () => {
    const member = await signUpMember(api);
    const link = await add(member, { title: 'Church', url: 'https://example.org/church' });
    const head = await fetch(`${api.url}/l/${link.id}`, {
      method: 'HEAD',
      redirect: 'manual',
      headers: { 'user-agent': BROWSER },
    });
    expect(head.status).toBe(302);
    expect(await api.dataSource.getRepository(LinkClickDayRecord).findBy({ linkId: link.id })).toEqual([]);
  });

  it('still sends the visitor on when the click cannot be counted', async () => {
    const member = await signUpMember(api);
    const link = await add(member, { title: 'Church', url: 'https://example.org/church' });
    // The count's table is away, so its write fails in the database, as it would on a full disk.
    await api.dataSource.query('ALTER TABLE link_click_days RENAME TO link_click_days_away');
    try {
      const response = await follow(link.id);
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('https://example.org/church');
    } finally {
      await api.dataSource.query('ALTER TABLE link_click_days_away RENAME TO link_click_days');
    }
  });

  it('is not found for a hidden link, on a private or inactive page, or for an unknown id', async () => {
    const member = await signUpMember(api);
    const uid = member.member.user.uid;
    const link = await add(member, { title: 'Church', url: 'https://example.org/church' });
    const hidden = await add(member, { title: 'Secret', url: 'https://example.org/secret', hidden: true });
    expect((await follow(hidden.id)).status).toBe(404);
    expect((await follow(crypto.randomUUID())).status).toBe(404);
    expect((await follow('not-an-id')).status).toBe(404);
    await api.dataSource.getRepository(ProfileRecord).update({ uid }, { isPublic: false });
    expect((await follow(link.id)).status).toBe(404);
    await api.dataSource.getRepository(ProfileRecord).update({ uid }, { isPublic: true, isActive: false });
    expect((await follow(link.id)).status).toBe(404);
    await api.dataSource.getRepository(ProfileRecord).update({ uid }, { isActive: true });
    expect((await follow(link.id)).status).toBe(302);
    expect(await api.dataSource.getRepository(LinkClickDayRecord).findBy({ uid })).toMatchObject([{ clicks: 1 }]);
  });
});

describe('pageStats', () => {
  const STATS = `query ($days: Int) { pageStats(days: $days) {
    days views clicks clickRate byDay { day views clicks } links { link { title } clicks }
  } }`;

  async function statsOf(member: SignedUpMember): Promise<Record<string, unknown> & { byDay: unknown[] }> {
    const response = await api.graphql<{ pageStats: Record<string, unknown> & { byDay: unknown[] } }>(
      STATS,
      {},
      { token: member.session.accessToken },
    );
    expect(response.errors).toBeUndefined();
    const stats = response.data?.pageStats;
    if (!stats) throw new Error('pageStats answered nothing');
    return stats;
  }

  it('counts views of the page and clicks on its links, per day and visitor, without storing who', async () => {
    const member = await signUpMember(api);
    const link = await add(member, { title: 'Church', url: 'https://example.org/church' });
    for (const address of ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4']) {
      await view(member, { address });
    }
    await view(member, { userAgent: 'facebookexternalhit/1.1' });
    await view(member, { address: '192.0.2.80', headers: { 'sec-purpose': 'prefetch;prerender' } });
    await fetch(`${api.url}/@${member.member.profile.username}`, { method: 'HEAD', headers: visitorHeaders({}) });
    await follow(link.id, { address: '198.51.100.1' });

    const stats = await statsOf(member);
    expect(stats).toMatchObject({ days: 7, views: 4, clicks: 1, clickRate: 0.25 });
    // Every member sees each link's clicks, not only the totals.
    expect(stats.links).toEqual([{ link: { title: 'Church' }, clicks: 1 }]);
    expect(stats.byDay).toHaveLength(7);
    expect(stats.byDay.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), views: 4, clicks: 1 });
    // Counts by page (or link) and day are all there is to store: no address, user agent or time.
    const runner = api.dataSource.createQueryRunner();
    const columns = async (table: string) =>
      (await runner.getTable(table))?.columns.map((column) => column.name).sort();
    try {
      expect(await columns('page_view_days')).toEqual(['day', 'uid', 'views']);
      expect(await columns('link_click_days')).toEqual(['clicks', 'day', 'link_id', 'uid']);
    } finally {
      await runner.release();
    }
    expect(await api.dataSource.getRepository(PageViewDayRecord).countBy({ uid: member.member.user.uid })).toBe(1);
  });

  it('counts 200 views and 300 clicks from one visitor once each, and the rate stays within 100%', async () => {
    const member = await signUpMember(api);
    const uid = member.member.user.uid;
    const link = await add(member, { title: 'Church', url: 'https://example.org/church' });
    for (let visit = 0; visit < 200; visit += 1) expect((await view(member)).status).toBe(200);
    for (let click = 0; click < 300; click += 1) expect((await follow(link.id)).status).toBe(302);
    expect(await statsOf(member)).toMatchObject({ views: 1, clicks: 1, clickRate: 1 });

    // A second visitor counts again; one who follows a second link too cannot push the rate past 100%.
    const other = await add(member, { title: 'Sermons', url: 'https://example.org/sermons' });
    await view(member, { userAgent: `${BROWSER} Edg/131.0` });
    await follow(link.id, { userAgent: `${BROWSER} Edg/131.0` });
    await follow(other.id, { userAgent: `${BROWSER} Edg/131.0` });
    await follow(other.id, { address: '203.0.113.60' });
    await follow(other.id, { address: '203.0.113.61' });
    expect(await statsOf(member)).toMatchObject({ views: 2, clicks: 5, clickRate: 1 });

    // The rows hold the day's totals: no address or user agent, in any column.
    const rows = [
      ...(await api.dataSource.getRepository(PageViewDayRecord).findBy({ uid })),
      ...(await api.dataSource.getRepository(LinkClickDayRecord).findBy({ uid })),
    ];
    expect(rows).toHaveLength(3);
    const stored = JSON.stringify(rows);
    for (const trace of ['198.51.100.7', '203.0.113', 'Mozilla', 'Edg/']) expect(stored).not.toContain(trace);
  });

  it('gives 90 days with Plus only, with each link’s clicks over them', async () => {
    const member = await signUpMember(api);
    const token = member.session.accessToken;
    const link = await add(member, { title: 'Church', url: 'https://example.org/church' });
    await follow(link.id);
    expect(firstError(await api.graphql(STATS, { days: 90 }, { token }))).toMatchObject({ code: 'PLUS_REQUIRED' });
    expect(firstError(await api.graphql(STATS, { days: 0 }, { token }))).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'days',
    });
    await api.dataSource.getRepository(UserRecord).update({ uid: member.member.user.uid }, { stripeRole: 'plus' });
    const response = await api.graphql<{ pageStats: { byDay: unknown[]; links: unknown } }>(
      STATS,
      { days: 90 },
      { token },
    );
    expect(response.data?.pageStats.byDay).toHaveLength(90);
    expect(response.data?.pageStats.links).toEqual([{ link: { title: 'Church' }, clicks: 1 }]);
  });
});

describe('bio', () => {
  it('is saved trimmed, shown to visitors, and refused past 160 characters', async () => {
    const member = await signUpMember(api);
    const token = member.session.accessToken;
    const UPDATE_BIO = 'mutation ($bio: String!) { updateProfile(input: { bio: $bio }) { bio } }';
    const saved = await api.graphql(UPDATE_BIO, { bio: '  Pastor’s wife,\r\n\r\n\r\nmother of three.  ' }, { token });
    expect(saved.data).toEqual({ updateProfile: { bio: 'Pastor’s wife,\n\nmother of three.' } });
    const visitors = await api.graphql('query ($u: String!) { profile(username: $u) { bio } }', {
      u: member.member.profile.username,
    });
    expect(visitors.data).toEqual({ profile: { bio: 'Pastor’s wife,\n\nmother of three.' } });
    const tooLong = await api.graphql(UPDATE_BIO, { bio: 'x'.repeat(161) }, { token });
    expect(firstError(tooLong)).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.bio' });
    const page = await (await fetch(`${api.url}/@${member.member.profile.username}`)).text();
    expect(page).toContain('Pastor’s wife,');
  });
});

describe('link icons', () => {
  it('are served as SVG for every icon a link can show, and unknown ones are not found', async () => {
    for (const icon of ['youtube', 'applepodcasts', 'x', 'email', 'phone', 'link']) {
      const response = await fetch(`${api.url}/icons/${icon}.svg`);
      expect(response.status, icon).toBe(200);
      expect(response.headers.get('content-type')).toContain('image/svg+xml');
      expect(await response.text()).toMatch(/^<svg[^>]*viewBox="0 0 24 24"[\s\S]*<path d="M/);
    }
    // Other sites show them beside the links they read from the API.
    expect((await fetch(`${api.url}/icons/youtube.svg`)).headers.get('cross-origin-resource-policy')).toBe(
      'cross-origin',
    );
    expect((await fetch(`${api.url}/icons/unknown.svg`)).status).toBe(404);
    expect((await fetch(`${api.url}/icons/..%2Fpackage.json`)).status).toBe(404);
  });
});
