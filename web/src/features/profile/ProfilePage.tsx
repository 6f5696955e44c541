import { Link } from 'react-router';
import { useAuth } from '../../session/AuthProvider';
import { Layout } from '../../ui/Layout';
import { PageHeading } from '../../ui/PageHeading';
import { NotFoundPage } from '../../ui/NotFoundPage';
import { usePageMeta } from '../../lib/use-page-meta';
import type { ProfileView_ProfileFragment } from '../../ui/profile/profile-view.generated';
import { ProfileError, ProfileSkeleton, ProfileView, profileMeta } from '../../ui/profile/ProfileView';
import { useReaderTranslation } from '../../lib/reader-translation';
import { TranslationToggle } from '../../ui/verse/TranslationToggle';
import { ReportPageLink } from './ReportPageLink';
import { useProfilePage } from './use-profile-page';

function ProfileMeta({ profile }: { profile: ProfileView_ProfileFragment }) {
  usePageMeta({ ...profileMeta(profile), type: 'profile' });
  return null;
}

/** What a member sees at the address of their own page while visitors get "Page not found". */
function OwnPageHidden() {
  usePageMeta({ title: 'Your page is private · Lampstand' });
  return (
    <section className="page narrow" aria-labelledby="own-page-title">
      <PageHeading id="own-page-title">Your page is private</PageHeading>
      <p className="lead">Visitors see “Page not found” at this address until you make your page public again.</p>
      <p>
        <Link to="/profile" className="button button--primary">
          Open your page settings
        </Link>
      </p>
    </section>
  );
}

/**
 * `/@username`: a member's public page, or the 404 page when it is private, inactive or unknown.
 * Its owner gets a way to edit it, and is told when it is hidden instead of seeing a plain 404.
 */
export function ProfilePage({ username }: { username: string }) {
  const [translation, chooseTranslation] = useReaderTranslation();
  const state = useProfilePage(username, translation);
  const { username: own } = useAuth();
  const mine = own !== null && own === username.toLowerCase();
  switch (state.status) {
    case 'loading':
      return <ProfileSkeleton username={username} />;
    case 'error':
      return <ProfileError onRetry={state.retry} />;
    case 'not-found':
      return <Layout>{mine ? <OwnPageHidden /> : <NotFoundPage />}</Layout>;
    case 'ready':
      return (
        <>
          <ProfileMeta profile={state.profile} />
          {mine && (
            <nav className="owner-bar" aria-label="Your page">
              <Link to="/profile" className="button button--small">
                Edit page
              </Link>
            </nav>
          )}
          <ProfileView
            profile={state.profile}
            verseControls={
              <TranslationToggle value={translation ?? state.profile.translation} onChange={chooseTranslation} />
            }
            footer={mine ? undefined : <ReportPageLink username={state.profile.username} />}
          />
        </>
      );
  }
}
