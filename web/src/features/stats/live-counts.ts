import type { PageActivitySubscription } from './page-activity.generated';
import type { StatsPageQuery } from './stats-page.generated';

type Stats = StatsPageQuery['pageStats'];
type Activity = PageActivitySubscription['pageActivity'];

/** Clicks per view, as the server works it out (server/src/links/page-stats.service.ts). */
function clickRate(views: number, clicks: number): number {
  return views === 0 ? 0 : Math.min(1, clicks / views);
}

/**
 * The stats with one more view or click, as the server has just counted it; null when they cannot
 * be brought up to date here and must be read again: the activity falls on a UTC day the period
 * does not show yet (midnight passed, so the oldest day leaves the period), or a click is on a link
 * the list does not have (added since the screen loaded).
 */
export function withActivity(stats: Stats, activity: Activity): Stats | null {
  const day = new Date(activity.at).toISOString().slice(0, 10);
  if (!stats.byDay.some((each) => each.day === day)) return null;
  const view = activity.kind === 'view' ? 1 : 0;
  const click = activity.kind === 'click' ? 1 : 0;
  if (click && !stats.links.some((each) => each.link.id === activity.linkId)) return null;
  const views = stats.views + view;
  const clicks = stats.clicks + click;
  return {
    ...stats,
    views,
    clicks,
    clickRate: clickRate(views, clicks),
    byDay: stats.byDay.map((each) =>
      each.day === day ? { ...each, views: each.views + view, clicks: each.clicks + click } : each,
    ),
    links: stats.links.map((each) =>
      click && each.link.id === activity.linkId ? { ...each, clicks: each.clicks + 1 } : each,
    ),
  };
}
