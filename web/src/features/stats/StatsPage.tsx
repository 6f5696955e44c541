import { Link } from 'react-router';
import { failureWords } from '../../lib/error-words';
import { appConfig } from '../../lib/config';
import { usePageMeta } from '../../lib/use-page-meta';
import { useAuth } from '../../session/AuthProvider';
import { MemberNav } from '../../ui/MemberNav';
import { PageHeading } from '../../ui/PageHeading';
import { DailyChart } from './DailyChart';
import type { ChartDay } from './DailyChart';
import { formatDay, formatRate } from './format';
import type { StatsPageQuery } from './stats-page.generated';
import { useStats } from './use-stats';
import './stats.css';

type Stats = StatsPageQuery['pageStats'];

function Totals({ stats }: { stats: Stats }) {
  return (
    <dl className="stats-totals">
      <div>
        <dt>Views</dt>
        <dd data-stat="views">{stats.views}</dd>
      </div>
      <div>
        <dt>Clicks</dt>
        <dd data-stat="clicks">{stats.clicks}</dd>
      </div>
      <div>
        <dt>Click rate</dt>
        <dd data-stat="rate">{formatRate(stats.clickRate)}</dd>
      </div>
    </dl>
  );
}

function DayTable({ id, days, caption }: { id: string; days: readonly ChartDay[]; caption: string }) {
  return (
    <table id={id} className="stats-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Day</th>
          <th scope="col">Views</th>
          <th scope="col">Clicks</th>
        </tr>
      </thead>
      <tbody>
        {[...days].reverse().map((each) => (
          <tr key={each.day}>
            <th scope="row">
              <time dateTime={each.day}>{formatDay(each.day)}</time>
            </th>
            <td>{each.views}</td>
            <td>{each.clicks}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function LinkTable({ links, total }: { links: Stats['links']; total: number }) {
  if (links.length === 0) {
    return <p className="stats-empty">You have no links yet. Add some in your page settings.</p>;
  }
  return (
    <table className="stats-table stats-links">
      <caption className="visually-hidden">Clicks on each link</caption>
      <thead>
        <tr>
          <th scope="col">Link</th>
          <th scope="col">Clicks</th>
          <th scope="col">Share</th>
        </tr>
      </thead>
      <tbody>
        {links.map(({ link, clicks }) => (
          <tr key={link.id} data-link-id={link.id}>
            <th scope="row">
              {link.title}
              {link.hidden && <span className="stats-muted"> (hidden)</span>}
            </th>
            <td>{clicks}</td>
            <td>{formatRate(total === 0 ? 0 : clicks / total)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function StatsBody({ stats, plus }: { stats: Stats; plus: boolean }) {
  const { username } = useAuth();
  const empty = stats.views === 0 && stats.clicks === 0;
  return (
    <>
      <Totals stats={stats} />
      {empty && (
        <p className="stats-empty">
          No visits yet. Views of your page and clicks on your links show here the same day
          {username ? (
            <>
              {' '}
              — share <a href={`/@${username}`}>your page</a> to get started
            </>
          ) : null}
          .
        </p>
      )}
      <section aria-labelledby="stats-days-title" className="stats-section">
        <h2 id="stats-days-title">By day</h2>
        {plus ? (
          <>
            <DailyChart days={stats.byDay} describedBy="stats-day-table" />
            <details className="stats-details">
              <summary>The numbers by day</summary>
              <DayTable id="stats-day-table" days={stats.byDay} caption={`Views and clicks, last ${stats.days} days`} />
            </details>
          </>
        ) : (
          <DayTable id="stats-day-table" days={stats.byDay} caption={`Views and clicks, last ${stats.days} days`} />
        )}
      </section>
      <section aria-labelledby="stats-links-title" className="stats-section">
        <h2 id="stats-links-title">Clicks per link</h2>
        <LinkTable links={stats.links} total={stats.clicks} />
      </section>
    </>
  );
}

/** `/stats`: views of the member's page and clicks on each of its links; 90 days and a chart with Plus. */
export function StatsPage() {
  usePageMeta({ title: 'Stats · Lampstand' });
  const { plus, stats, failure, retry } = useStats();
  return (
    <section className="page stats" aria-labelledby="stats-title">
      <MemberNav />
      <PageHeading id="stats-title">Stats</PageHeading>
      <p className="lead">
        Views of your page and clicks on your links over the last {plus ? 90 : 7} days, by UTC day. Only counts are
        kept: nothing about who came.
      </p>
      <p className="stats-method">
        Each visitor counts once a day for your page and once for each link, told apart by a code made from their
        address and browser with a key that is thrown away every day; bots and prefetches are not counted, and the click
        rate (clicks per view) stops at 100%.
      </p>
      {!plus && appConfig().billing && (
        <p className="stats-upsell">
          See 90 days and a chart with <Link to="/plus">Lampstand Plus</Link>.
        </p>
      )}
      {stats ? (
        <StatsBody stats={stats} plus={plus} />
      ) : failure ? (
        <div role="alert" className="stats-error">
          <p>We couldn’t load your stats. {failureWords(failure)}</p>
          <button type="button" className="button" onClick={retry}>
            Try again
          </button>
        </div>
      ) : (
        <p role="status" className="stats-loading">
          Loading your stats…
        </p>
      )}
    </section>
  );
}
