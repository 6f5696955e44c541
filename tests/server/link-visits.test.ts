import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRecord } from '../../server/src/members/user.entity.js';
import { LinkClickDayRecord, PageViewDayRecord } from '../../server/src/links/link.entity.js';
import { ProfileRecord } from '../../server/src/profiles/profile.entity.js';
import type { TestApp } from '../support/app.js';
import type { SignedUpMember } from '../support/members.js';
import { firstError, signUpMember } from '../support/members.js';
import { addLink, startPagesApp } from '../support/links.js';

let api: TestApp;
beforeAll(async () => {
  api = await startPagesApp();
});
afterAll(async () => {
  await api.close();
});

const add = (member: SignedUpMember, input: Record<string, unknown>) => addLink(api, member, input);

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

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
