import { describe, expect, it } from 'vitest';
import { LinkClickDayRecord, PageViewDayRecord } from '../../server/src/links/link.entity.js';
import { FirstVisits } from '../../server/src/links/first-visits.js';
import { PageStatsService } from '../../server/src/links/page-stats.service.js';
import { openTestDatabase } from '../support/database.js';
import { forTheFile } from '../support/for-the-file.js';
import { insertMember } from '../support/factories.js';

const db = forTheFile(openTestDatabase);

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const at = new Date('2026-11-28T12:00:00Z');

/** Counts written through one statement for many visits: what each caller awaits is then in the table. */
describe('counting views and clicks together', () => {
  it('writes every first visit asked for at once, each visitor once, and each caller sees its count committed', async () => {
    const events: string[] = [];
    const stats = new PageStatsService(db.dataSource, new FirstVisits(), (uid, event) => {
      events.push(`${event.kind} ${uid}`);
    });
    const pages = await Promise.all([insertMember(db.dataSource), insertMember(db.dataSource)]);
    const [first, second] = pages.map((page) => page.user.uid);
    if (!first || !second) throw new Error('two members were not made');
    const visitors = Array.from({ length: 30 }, (_unused, index) => ({
      address: `198.51.100.${index % 10}`,
      userAgent: BROWSER,
    }));
    // Ten visitors, each three times, on two pages, all at once: twenty views.
    await Promise.all(visitors.flatMap((visitor) => [first, second].map((uid) => stats.countView(uid, visitor, at))));
    const views = await db.dataSource.getRepository(PageViewDayRecord).find({ order: { uid: 'ASC' } });
    expect(views.filter((row) => row.uid === first || row.uid === second)).toEqual(
      [first, second].sort().map((uid) => ({ uid, day: '2026-11-28', views: 10 })),
    );
    expect(events.filter((event) => event.startsWith('view'))).toHaveLength(20);

    // A second round adds to the day's rows.
    await Promise.all([stats.countView(first, { address: '203.0.113.1', userAgent: BROWSER }, at)]);
    expect(await db.dataSource.getRepository(PageViewDayRecord).findOneBy({ uid: first })).toMatchObject({ views: 11 });
  });

  it('fails only the count whose row cannot be written when others are written with it', async () => {
    const stats = new PageStatsService(db.dataSource, new FirstVisits());
    const { user } = await insertMember(db.dataSource);
    const visitor = { address: '192.0.2.9', userAgent: BROWSER };
    const linkId = crypto.randomUUID();
    // An unknown member: the foreign key refuses its row.
    const results = await Promise.allSettled([
      stats.countClick(linkId, user.uid, visitor, at),
      stats.countClick(crypto.randomUUID(), crypto.randomUUID(), visitor, at),
      stats.countView(user.uid, visitor, at),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await db.dataSource.getRepository(LinkClickDayRecord).findBy({ uid: user.uid })).toEqual([
      { linkId, uid: user.uid, day: '2026-11-28', clicks: 1 },
    ]);
    expect(await db.dataSource.getRepository(PageViewDayRecord).findBy({ uid: user.uid })).toHaveLength(1);
  });
});
