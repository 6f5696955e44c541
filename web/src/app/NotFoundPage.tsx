import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <section className="page narrow" aria-labelledby="not-found-title">
      <h1 id="not-found-title">Page not found</h1>
      <p>There is nothing at this address. It may have moved, or the profile may be private.</p>
      <p>
        <Link to="/">Go to the home page</Link>
      </p>
    </section>
  );
}
