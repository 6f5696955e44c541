import { Link, useSearchParams } from 'react-router';
import { usePageMeta } from '../../lib/use-page-meta';
import { visitorTimeZone } from '../../lib/time-zone';
import { PageHeading } from '../../ui/PageHeading';
import { useReaderTranslation } from '../../lib/reader-translation';
import './verses.css';

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** Today's date where the visitor is, `YYYY-MM-DD`. */
function today(): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: visitorTimeZone(),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
}

function monthLabel(month: string): string {
  return new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month}-01T00:00:00Z`),
  );
}

function shiftMonth(month: string, by: number): string {
  const date = new Date(`${month}-01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + by);
  return date.toISOString().slice(0, 7);
}

/** The weeks of a month, Monday first; null where a week reaches into another month. */
function weeksOf(month: string): (string | null)[][] {
  const first = new Date(`${month}-01T00:00:00Z`);
  const lead = (first.getUTCDay() + 6) % 7;
  const days: (string | null)[] = Array.from({ length: lead }, () => null);
  for (const day = new Date(first); day.toISOString().startsWith(month); day.setUTCDate(day.getUTCDate() + 1)) {
    days.push(day.toISOString().slice(0, 10));
  }
  while (days.length % 7 !== 0) days.push(null);
  return Array.from({ length: days.length / 7 }, (_, week) => days.slice(week * 7, week * 7 + 7));
}

/**
 * `/verse`: a month of days, each a link to its verse's page (`/verse/YYYY-MM-DD`, written by the
 * server). Days after today are not linked yet. `?month=YYYY-MM` picks the month.
 */
export function VerseCalendarPage() {
  usePageMeta({ title: 'Verses of past days · Lampstand' });
  const [params] = useSearchParams();
  const [translation] = useReaderTranslation();
  const now = today();
  const current = now.slice(0, 7);
  const asked = params.get('month') ?? '';
  const month = MONTH.test(asked) && asked <= current ? asked : current;
  const query = translation === 'WEB' ? '?translation=WEB' : '';
  return (
    <section className="page verse-calendar" aria-labelledby="calendar-title">
      <PageHeading id="calendar-title">Verses of past days</PageHeading>
      <p className="lead">Every day has its verse. Pick a day to read it, share it or save it.</p>
      <nav className="calendar-nav" aria-label="Months">
        <Link to={`/verse?month=${shiftMonth(month, -1)}`} className="button button--quiet">
          ← {monthLabel(shiftMonth(month, -1))}
        </Link>
        {month < current && (
          <Link to={`/verse?month=${shiftMonth(month, 1)}`} className="button button--quiet">
            {monthLabel(shiftMonth(month, 1))} →
          </Link>
        )}
      </nav>
      <table className="calendar">
        <caption>{monthLabel(month)}</caption>
        <thead>
          <tr>
            {WEEKDAYS.map((day, index) => (
              <th key={day} scope="col">
                <abbr title={WEEKDAY_NAMES[index]}>{day}</abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeksOf(month).map((week, index) => (
            <tr key={index}>
              {week.map((date, column) => (
                <td key={date ?? `empty-${column}`}>
                  {date === null ? null : date <= now ? (
                    <a
                      href={`/verse/${date}${query}`}
                      className="calendar-day"
                      aria-current={date === now ? 'date' : undefined}
                      aria-label={new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeZone: 'UTC' }).format(
                        new Date(`${date}T00:00:00Z`),
                      )}
                    >
                      {Number(date.slice(8))}
                    </a>
                  ) : (
                    <span className="calendar-day calendar-day--later">{Number(date.slice(8))}</span>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
