import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PageLoading } from '../app/PageLoading';
import { useAuth } from './AuthProvider';

/** A path to come back to after logging in: only paths of this site. */
export function safeReturnPath(value: string | null, fallback: string): string {
  return value?.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : fallback;
}

/** Where the login page sends a visitor who wanted `pathname`. */
export function loginPath(pathname: string): string {
  return `/login?next=${encodeURIComponent(pathname)}`;
}

/**
 * A member's screen: visitors go to the log-in page (and come back after it); members who have not
 * finished the welcome screen see it first. The server checks every operation all the same.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { signedIn, profile, memberError, retryMember } = useAuth();
  const location = useLocation();
  if (!signedIn) return <Navigate to={loginPath(location.pathname + location.search)} replace />;
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
