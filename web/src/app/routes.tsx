import { lazy, Suspense } from 'react';
import type { ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation, useParams } from 'react-router';
import { RequireAuth } from '../session/RequireAuth';
import { ErrorBoundary } from '../ui/ErrorBoundary';
import { Layout } from '../ui/Layout';
import { NotFoundPage } from '../ui/NotFoundPage';
import { PageLoading } from '../ui/PageLoading';
import { SAVE_NEEDS_ACCOUNT } from '../ui/verse/save-notice';
import { carriesEmailedLink } from '../lib/emailed-link';

// Each page but the 404 page is its own chunk, so a route downloads only its own code (quality.md P7).
const LandingPage = lazy(() => import('../features/landing/LandingPage').then((m) => ({ default: m.LandingPage })));
const ProfilePage = lazy(() => import('../features/profile/ProfilePage').then((m) => ({ default: m.ProfilePage })));
const PlaygroundPage = lazy(() =>
  import('../features/playground/PlaygroundPage').then((m) => ({ default: m.PlaygroundPage })),
);
const SignUpPage = lazy(() => import('../features/auth/SignUpPage').then((m) => ({ default: m.SignUpPage })));
const LoginPage = lazy(() => import('../features/auth/LoginPage').then((m) => ({ default: m.LoginPage })));
const ForgotPasswordPage = lazy(() =>
  import('../features/auth/ForgotPasswordPage').then((m) => ({ default: m.ForgotPasswordPage })),
);
const ResetPasswordPage = lazy(() =>
  import('../features/auth/ResetPasswordPage').then((m) => ({ default: m.ResetPasswordPage })),
);
const EmailConfirmedPage = lazy(() =>
  import('../features/auth/EmailConfirmedPage').then((m) => ({ default: m.EmailConfirmedPage })),
);
const WelcomePage = lazy(() => import('../features/welcome/WelcomePage').then((m) => ({ default: m.WelcomePage })));
const ProfileEditorPage = lazy(() =>
  import('../features/editor/ProfileEditorPage').then((m) => ({ default: m.ProfileEditorPage })),
);
const AccountPage = lazy(() => import('../features/account/AccountPage').then((m) => ({ default: m.AccountPage })));
const VerseCalendarPage = lazy(() =>
  import('../features/verses/VerseCalendarPage').then((m) => ({ default: m.VerseCalendarPage })),
);
const SavedVersesPage = lazy(() =>
  import('../features/verses/SavedVersesPage').then((m) => ({ default: m.SavedVersesPage })),
);
const PlusPage = lazy(() => import('../features/plus/PlusPage').then((m) => ({ default: m.PlusPage })));
const StatsPage = lazy(() => import('../features/stats/StatsPage').then((m) => ({ default: m.StatsPage })));
const PrayerRequestsPage = lazy(() =>
  import('../features/prayer/PrayerRequestsPage').then((m) => ({ default: m.PrayerRequestsPage })),
);

/** `/@username` is a member's page; any other single segment is not a page. */
function HandleRoute() {
  const { handle = '' } = useParams();
  const username = handle.startsWith('@') ? handle.slice(1) : '';
  if (!username) {
    return (
      <Layout>
        <NotFoundPage />
      </Layout>
    );
  }
  return <ProfilePage key={username} username={username} />;
}

/**
 * The site's root, where the identity service sends an emailed link without a `redirect_to` (an
 * operator's invitation, as Supabase Auth does with SITE_URL): a session or link failure in the
 * fragment goes on to the page that handles emailed links.
 */
function Home() {
  const { hash } = useLocation();
  if (carriesEmailedLink(hash)) {
    return <Navigate to={{ pathname: '/email-confirmed', hash }} replace />;
  }
  return <LandingPage />;
}

function member(page: ReactNode) {
  return <RequireAuth>{page}</RequireAuth>;
}

/** The saved verses; a past day's "Save this verse" (`/saved?ref=…`) leads a visitor to sign up, with the reason. */
const savedVerses = (
  <RequireAuth signUpFirst={(search) => (search.has('ref') ? SAVE_NEEDS_ACCOUNT : null)}>
    <SavedVersesPage />
  </RequireAuth>
);

/** The frame of a failure outside the site's layout (public profiles, the playground). */
function bareFrame(message: ReactNode) {
  return (
    <main id="main" tabIndex={-1}>
      {message}
    </main>
  );
}

/**
 * Every page of the app. Public profiles and the playground bring their own page chrome; pages in
 * the layout fail inside it (see Layout), the others here.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary resetKey={pathname} frame={bareFrame}>
      <Suspense fallback={<PageLoading />}>
        <Routes>
          <Route element={<Layout />}>
            <Route index element={<Home />} />
            <Route path="signup" element={<SignUpPage />} />
            <Route path="login" element={<LoginPage />} />
            <Route path="forgot-password" element={<ForgotPasswordPage />} />
            <Route path="reset-password" element={<ResetPasswordPage />} />
            <Route path="email-confirmed" element={<EmailConfirmedPage />} />
            <Route path="welcome" element={member(<WelcomePage />)} />
            <Route path="profile" element={member(<ProfileEditorPage />)} />
            <Route path="account" element={member(<AccountPage />)} />
            <Route path="plus" element={member(<PlusPage />)} />
            <Route path="stats" element={member(<StatsPage />)} />
            <Route path="prayer-requests" element={member(<PrayerRequestsPage />)} />
            <Route path="verse" element={<VerseCalendarPage />} />
            <Route path="saved" element={savedVerses} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
          <Route path="playground" element={<PlaygroundPage />} />
          <Route path=":handle" element={<HandleRoute />} />
        </Routes>
      </Suspense>
    </ErrorBoundary>
  );
}
