import { Link, Outlet } from 'react-router';

export function Layout() {
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <Link to="/" className="brand" aria-label="Lampstand home">
          <svg aria-hidden="true" viewBox="0 0 64 64" width="28" height="28">
            <path d="M32 8c6 8 9 12 9 18a9 9 0 0 1-18 0c0-6 3-10 9-18z" fill="currentColor" />
            <rect x="28" y="37" width="8" height="13" rx="2" fill="currentColor" opacity=".7" />
            <rect x="19" y="51" width="26" height="5" rx="2.5" fill="currentColor" opacity=".7" />
          </svg>
          <span>Lampstand</span>
        </Link>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <footer className="site-footer">
        <p>Scripture quotations from the King James Version (1769), public domain.</p>
      </footer>
    </div>
  );
}
