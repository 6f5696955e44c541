import { Suspense } from 'react';
import type { ReactNode } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { useConsent } from '../consent/ConsentProvider';
import { BrandMark } from './BrandMark';
import { PageLoading } from './PageLoading';

/** The site's frame: header with the account links, the page, and the footer. */
export function Layout({ children }: { children?: ReactNode }) {
  const consent = useConsent();
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <Link to="/" className="brand" aria-label="Lampstand home">
          <BrandMark />
          <span>Lampstand</span>
        </Link>
        <nav aria-label="Account" className="site-nav">
          <NavLink to="/login" className="nav-link">
            Log in
          </NavLink>
          <NavLink to="/signup" className="button button--primary button--small">
            Sign up
          </NavLink>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<PageLoading />}>{children ?? <Outlet />}</Suspense>
      </main>
      <footer className="site-footer">
        <nav aria-label="More" className="footer-nav">
          <Link to="/playground">GraphQL playground</Link>
          {consent && (
            <button type="button" className="link-button" onClick={consent.showPreferences}>
              Cookie settings
            </button>
          )}
        </nav>
        <p>Scripture quotations from the King James Version (1769), public domain.</p>
      </footer>
    </div>
  );
}
