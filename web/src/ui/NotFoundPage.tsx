import { Link } from 'react-router';
import { PageHeading } from './PageHeading';
import { usePageMeta } from '../lib/use-page-meta';

export function NotFoundPage() {
  usePageMeta({ title: 'Page not found · Lampstand' });
  return (
    <section className="page narrow not-found" aria-labelledby="not-found-title">
      <p className="eyebrow">404</p>
      <PageHeading id="not-found-title">Page not found</PageHeading>
      <p className="lead">
        There is nothing at this address. The link may be mistyped, or the page may have been made private.
      </p>
      <blockquote className="not-found-verse">
        <p>“Seek, and ye shall find; knock, and it shall be opened unto you.”</p>
        <footer>Matthew 7:7</footer>
      </blockquote>
      <p>
        <Link to="/" className="button button--primary">
          Go to the home page
        </Link>
      </p>
    </section>
  );
}
