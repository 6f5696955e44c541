import type { DataSource } from 'typeorm';
import { Between } from 'typeorm';
import { requireLiveMember } from '../members/live-member.js';
import { UserRecord } from '../members/user.entity.js';
import type { AuthUser } from '../graphql/context.js';
import type { Visitor } from '../http/visits.js';
import { badUserInput } from '../graphql/errors.js';
import { requirePlus } from '../members/plus.js';
import { LinkClickDayRecord, LinkRecord, PageViewDayRecord } from './link.entity.js';
import { toLink } from './link.service.js';
import type { CounterTable } from './day-counts.js';
import { DayCounter } from './day-counts.js';
import type { FirstVisits } from './first-visits.js';
import type { PageActivityEvent } from './page-activity.js';
import { DayStats, LinkStats, PageStats } from './link.types.js';

/** Days of stats every member sees, and Plus members. */
export const FREE_STATS_DAYS = 7;
export const PLUS_STATS_DAYS = 90;

const PAGE_VIEWS: CounterTable = { table: 'page_view_days', columns: ['uid', 'day'], keyColumns: 2, count: 'views' };
const LINK_CLICKS: CounterTable = {
  table: 'link_click_days',
  columns: ['link_id', 'day', 'uid'],
  keyColumns: 2,
  count: 'clicks',
};

/** The UTC day a count goes to. */
export function statsDay(at: Date = new Date()): string {
  return at.toISOString().slice(0, 10);
}

/** One day of a page's counts. */
export interface DayCounts {
  day: string;
  views: number;
  clicks: number;
}

/**
 * Counts of views and clicks: daily totals per page and per link, each visitor once a day per page
 * and per link (see `FirstVisits`), and nothing about who came (no address, no user agent, no cookie).
 */
export class PageStatsService {
  private readonly views: DayCounter;
  private readonly clicks: DayCounter;

  constructor(
    private readonly dataSource: DataSource,
    private readonly visits: FirstVisits,
    /** Told of each view and click counted, for the owner's live stats (`pageActivity`). */
    private readonly counted: (uid: string, event: PageActivityEvent) => void = () => undefined,
  ) {
    this.views = new DayCounter(dataSource, PAGE_VIEWS);
    this.clicks = new DayCounter(dataSource, LINK_CLICKS);
  }

  /** Adds a view to the page of `uid` today, when it is `visitor`'s first there today. */
  async countView(uid: string, visitor: Visitor, at: Date = new Date()): Promise<void> {
    if (!(await this.visits.first(`view:${uid}`, visitor, at))) return;
    await this.views.add([uid, statsDay(at)]);
    this.counted(uid, { kind: 'view', linkId: null, at: at.toISOString() });
  }

  /** Adds a click to the link `linkId` on the page of `uid` today, when it is `visitor`'s first on it today. */
  async countClick(linkId: string, uid: string, visitor: Visitor, at: Date = new Date()): Promise<void> {
    if (!(await this.visits.first(`click:${linkId}`, visitor, at))) return;
    await this.clicks.add([linkId, statsDay(at), uid]);
    this.counted(uid, { kind: 'click', linkId, at: at.toISOString() });
  }

  /** The page's counts for each of the `days` days up to and including `today` (oldest first), and each link's clicks over them. */
  private async forPage(
    uid: string,
    days: number,
    today: Date = new Date(),
  ): Promise<{ days: DayCounts[]; clicksByLink: Map<string, number> }> {
    const dates = Array.from({ length: days }, (_unused, index) =>
      statsDay(new Date(today.getTime() - (days - 1 - index) * 86_400_000)),
    );
    const range = Between(dates[0] ?? statsDay(today), dates.at(-1) ?? statsDay(today));
    const [views, clicks] = await Promise.all([
      this.dataSource.getRepository(PageViewDayRecord).find({ where: { uid, day: range } }),
      this.dataSource.getRepository(LinkClickDayRecord).find({ where: { uid, day: range } }),
    ]);
    const byDay = new Map(dates.map((day) => [day, { day, views: 0, clicks: 0 }]));
    for (const row of views) {
      const counts = byDay.get(row.day);
      if (counts) counts.views += row.views;
    }
    const clicksByLink = new Map<string, number>();
    for (const row of clicks) {
      const counts = byDay.get(row.day);
      if (counts) counts.clicks += row.clicks;
      clicksByLink.set(row.linkId, (clicksByLink.get(row.linkId) ?? 0) + row.clicks);
    }
    return { days: [...byDay.values()], clicksByLink };
  }

  /** The member's stats over `days` days (1–7, or 1–90 with Plus), with each link's clicks over them. */
  async forMember(actor: AuthUser, days: number, today: Date = new Date()): Promise<PageStats> {
    const owner = requireLiveMember(await this.dataSource.getRepository(UserRecord).findOneBy({ uid: actor.id }));
    if (!Number.isInteger(days) || days < 1 || days > PLUS_STATS_DAYS) {
      throw badUserInput(`Ask for 1 to ${PLUS_STATS_DAYS} days of stats.`, 'days');
    }
    if (days > FREE_STATS_DAYS) requirePlus(owner, `More than ${FREE_STATS_DAYS} days of stats`);
    const counts = await this.forPage(actor.id, days, today);
    const views = counts.days.reduce((sum, day) => sum + day.views, 0);
    const clicks = counts.days.reduce((sum, day) => sum + day.clicks, 0);
    const records = await this.dataSource
      .getRepository(LinkRecord)
      .find({ where: { uid: actor.id }, order: { position: 'ASC' } });
    const links = records.map((record) =>
      Object.assign(new LinkStats(), { link: toLink(record), clicks: counts.clicksByLink.get(record.id) ?? 0 }),
    );
    return Object.assign(new PageStats(), {
      days,
      views,
      clicks,
      // A visitor may follow several links, or a link shared without its page: the rate is capped
      // at every view followed by a click (the stats screen says so).
      clickRate: views === 0 ? 0 : Math.min(1, clicks / views),
      byDay: counts.days.map((day) => Object.assign(new DayStats(), day)),
      links,
    });
  }
}
