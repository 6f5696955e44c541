import { useEffect } from 'react';
import { Link } from 'react-router';
import { usePageMeta } from '../../lib/use-page-meta';
import { useAuth } from '../../session/AuthProvider';
import { PageHeading } from '../../ui/PageHeading';
import { useLandingPageQuery } from './landing-page.generated';
import { useVisitorToday } from '../../lib/visitor-day';
import { VerseCard, VerseCardPlaceholder } from '../../ui/verse/VerseCard';
import { TranslationToggle } from '../../ui/verse/TranslationToggle';
import { useReaderTranslation } from '../../lib/reader-translation';
import { SaveVerseButton } from '../../ui/verse/SaveVerseButton';
import { SamplePage } from './SamplePage';
import { landingTakenOver } from './taken-over';

export function LandingPage() {
  usePageMeta({ title: 'Lampstand' });
  const { username } = useAuth();
  const [translation, chooseTranslation] = useReaderTranslation();
  // Undefined on the server, which answers today in UTC, and while the browser takes over its page.
  const date = useVisitorToday();
  // A date's verse never changes, so a cached answer (cache-first) is as good as a fresh one.
  const { data, dataState, previousData, error, loading, refetch } = useLandingPageQuery({
    variables: { date, translation },
  });
  // The verse shown stays until the next one (the visitor's day, another translation) arrives.
  const verse = dataState === 'complete' ? data.verseOfTheDay : error ? undefined : previousData?.verseOfTheDay;
  // The home page's entry holds a click on a link until the app owns the page (home.tsx).
  useEffect(landingTakenOver, []);
  return (
    <section className="page landing" aria-labelledby="landing-title">
      <PageHeading id="landing-title">A verse for today, on a page of your own.</PageHeading>
      <p className="lead">
        Lampstand gives you a simple public page with your name and a Bible verse that changes every day.
      </p>
      <p className="landing-actions">
        {username ? (
          <Link to={`/@${username}`} className="button button--primary">
            See your page
          </Link>
        ) : (
          <Link to="/signup" className="button button--primary">
            Make your page
          </Link>
        )}
      </p>
      <section className="today" aria-labelledby="today-title" aria-busy={loading}>
        <h2 id="today-title">Today’s verse</h2>
        {verse ? (
          <VerseCard verse={verse} />
        ) : error ? (
          <div className="verse-card verse-card--error" role="alert">
            <p>We couldn’t load today’s verse.</p>
            <button type="button" onClick={() => void refetch()}>
              Try again
            </button>
          </div>
        ) : (
          <VerseCardPlaceholder />
        )}
        <TranslationToggle value={translation ?? 'KJV'} onChange={chooseTranslation} />
        <p className="today-more">
          <Link to="/verse">Past days’ verses</Link>
          {verse && <SaveVerseButton key={verse.id} verseRef={verse.ref} translation={verse.translation} />}
        </p>
      </section>
      <SamplePage verse={verse} />
      <section className="developers" aria-labelledby="developers-title">
        <h2 id="developers-title">For developers</h2>
        <p>
          Public pages and the verse of the day are open to read over GraphQL, with no key. Try the queries in the
          playground.
        </p>
        <p>
          <Link to="/playground">Explore the API</Link>
        </p>
      </section>
    </section>
  );
}
