import { lazy, Suspense } from 'react';
import { Route, Routes, useParams } from 'react-router';
import { ComingSoonPage } from './ComingSoonPage';
import { Layout } from './Layout';
import { NotFoundPage } from './NotFoundPage';
import { PageLoading } from './PageLoading';

// Each page is its own chunk, so a route downloads only its own code (quality.md P7).
const LandingPage = lazy(() => import('../features/landing/LandingPage').then((m) => ({ default: m.LandingPage })));
const ProfilePage = lazy(() => import('../features/profile/ProfilePage').then((m) => ({ default: m.ProfilePage })));
const PlaygroundPage = lazy(() =>
  import('../features/playground/PlaygroundPage').then((m) => ({ default: m.PlaygroundPage })),
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

/** Every page of the app. Public profiles and the playground bring their own page chrome. */
export function AppRoutes() {
  return (
    <Suspense fallback={<PageLoading />}>
      <Routes>
        <Route element={<Layout />}>
          <Route index element={<LandingPage />} />
          <Route path="login" element={<ComingSoonPage title="Log in" />} />
          <Route path="signup" element={<ComingSoonPage title="Sign up" />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
        <Route path="playground" element={<PlaygroundPage />} />
        <Route path=":handle" element={<HandleRoute />} />
      </Routes>
    </Suspense>
  );
}
