import { Link } from 'react-router';
import { usePageMeta } from './usePageMeta';

/** Holds the place of the account pages, which come with the accounts API. */
export function ComingSoonPage({ title }: { title: string }) {
  usePageMeta({ title: `${title} · Lampstand` });
  return (
    <section className="page narrow" aria-labelledby="coming-soon-title">
      <p className="eyebrow">Coming soon</p>
      <h1 id="coming-soon-title">{title}</h1>
      <p className="lead">
        Accounts are on their way. Soon you will be able to make your own page with a verse for every day.
      </p>
      <p>
        <Link to="/" className="button button--primary">
          Back to today’s verse
        </Link>
      </p>
    </section>
  );
}
