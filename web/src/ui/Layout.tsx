import { Suspense, useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useAuth } from '../session/AuthProvider';
import { useLeaveSignedOut } from '../session/SignOutNavigation';
import { CookieSettingsButton } from '../consent/CookieSettingsButton';
import { SAME_PAGE } from './PageHeading';
import { BrandMark } from './BrandMark';
import { ErrorBoundary } from './ErrorBoundary';
import { PageLoading } from './PageLoading';

/** A message a screen leaves for the next one (`navigate(to, { state: { notice } })`). */
function noticeOf(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('notice' in state)) return null;
  return typeof state.notice === 'string' ? state.notice : null;
}

/**
 * Shows the notice a screen left for this one. The live region stays in the page (the layout
 * outlives the screens in it) and only its text changes, so that screen readers announce it; the
 * notice then leaves the history entry, and is forgotten once the member moves on, so that a
 * reload or going back does not show it again.
 */
function FlashNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  const incoming = noticeOf(location.state);
  const [shown, setShown] = useState<{ text: string; pathname: string } | null>(null);
  if (incoming && (shown?.text !== incoming || shown.pathname !== location.pathname)) {
    setShown({ text: incoming, pathname: location.pathname });
  } else if (!incoming && shown && shown.pathname !== location.pathname) {
    // Shown once: coming back to its page (the Back button) must not bring it back.
    setShown(null);
  }
  const { pathname, search, hash } = location;
  useEffect(() => {
    if (incoming) void navigate({ pathname, search, hash }, { replace: true, state: SAME_PAGE });
  }, [incoming, pathname, search, hash, navigate]);
  const text = shown?.pathname === location.pathname ? shown.text : null;
  return (
    <div role="status" className="flash-region">
      {text && <p className="flash">{text}</p>}
    </div>
  );
}

/** The header's links: logging in and signing up, or the member's page and settings. */
function AccountLinks() {
  const { signedIn, username, logout } = useAuth();
  const leave = useLeaveSignedOut();
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
          leave(logout, 'You are logged out.');
        }}
      >
        Log out
      </button>
    </>
  );
}

/** The site's frame: header with the account links, the page, and the footer. */
export function Layout({ children }: { children?: ReactNode }) {
  const { pathname } = useLocation();
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
        <FlashNotice />
        <ErrorBoundary resetKey={pathname}>
          <Suspense fallback={<PageLoading />}>{children ?? <Outlet />}</Suspense>
        </ErrorBoundary>
      </main>
      <footer className="site-footer">
        <nav aria-label="More" className="footer-nav">
          <Link to="/playground">GraphQL API &amp; playground</Link>
          <CookieSettingsButton />
        </nav>
        <p>Scripture quotations from the King James Version (1769) and the World English Bible, both public domain.</p>
      </footer>
    </div>
  );
}
