import { Suspense } from 'react';
import type { ReactNode } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useAuth } from '../auth/AuthProvider';
import { useConsent } from '../consent/ConsentProvider';
import { BrandMark } from './BrandMark';
import { PageLoading } from './PageLoading';

/** A message a screen leaves for the next one (`navigate(to, { state: { notice } })`). */
function useNotice(): string | null {
  const state: unknown = useLocation().state;
  if (typeof state !== 'object' || state === null || !('notice' in state)) return null;
  return typeof state.notice === 'string' ? state.notice : null;
}

/** The header's links: logging in and signing up, or the member's page and settings. */
function AccountLinks() {
  const { signedIn, username, logout } = useAuth();
  const navigate = useNavigate();
  if (!signedIn) {
    return (
      <>
        <NavLink to="/login" className="nav-link">
          Log in
        </NavLink>
        <NavLink to="/signup" className="button button--primary button--small">
          Sign up
        </NavLink>
      </>
    );
  }
  return (
    <>
      {username && (
        <NavLink to={`/@${username}`} className="nav-link">
          My page
        </NavLink>
      )}
      <NavLink to="/profile" className="nav-link">
        Settings
      </NavLink>
      <button
        type="button"
        className="button button--quiet button--small"
        onClick={() => {
          void logout().then(() => navigate('/', { state: { notice: 'You are logged out.' } }));
        }}
      >
        Log out
      </button>
    </>
  );
}

/** The site's frame: header with the account links, the page, and the footer. */
export function Layout({ children }: { children?: ReactNode }) {
  const consent = useConsent();
  const notice = useNotice();
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
          <AccountLinks />
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        {notice && (
          <p className="flash" role="status">
            {notice}
          </p>
        )}
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
