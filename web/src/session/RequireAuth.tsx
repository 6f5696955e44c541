import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PageLoading } from '../ui/PageLoading';
import { useAuth } from './AuthProvider';

/**
 * A path to come back to after logging in: only paths of this site. The browser's own URL parser
 * decides, since it drops tabs and newlines and reads `\` as `/` (`/\t/evil.com` is `//evil.com`).
 */
export function safeReturnPath(value: string | null, fallback: string): string {
  if (!value?.startsWith('/')) return fallback;
  try {
    const url = new URL(value, window.location.origin);
    // `/..//evil.com` stays on this site but its path would read as another host's.
    if (url.origin !== window.location.origin || url.pathname.startsWith('//')) return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}

/** Where the login page sends a visitor who wanted `pathname`. */
function loginPath(pathname: string): string {
  return `/login?next=${encodeURIComponent(pathname)}`;
}

/**
 * A member's screen: visitors go to the log-in page (and come back after it); members who have not
 * finished the welcome screen see it first. The server checks every operation all the same.
 */
export function RequireAuth({
  children,
  signUpFirst,
}: {
  children: ReactNode;
  /** A notice that sends a visitor to sign up instead (with the reason), for the address they asked for; null to log in. */
  signUpFirst?: (search: URLSearchParams) => string | null;
}) {
  const { signedIn, profile, memberError, retryMember } = useAuth();
  const location = useLocation();
  if (!signedIn) {
    const notice = signUpFirst?.(new URLSearchParams(location.search)) ?? null;
    if (notice !== null) return <Navigate to="/signup" state={{ notice }} replace />;
    return <Navigate to={loginPath(location.pathname + location.search)} replace />;
  }
  if (!profile) {
    if (!memberError) return <PageLoading />;
    return (
      <section className="page narrow" aria-labelledby="member-error-title">
        <h1 id="member-error-title">We couldn’t load your account</h1>
        <div role="alert">
          <p>Please check your connection and try again.</p>
        </div>
        <button type="button" onClick={retryMember}>
          Try again
        </button>
      </section>
    );
  }
  if (!profile.welcome && location.pathname !== '/welcome') return <Navigate to="/welcome" replace />;
  return children;
}
