import { Layout } from '../../app/Layout';
import { NotFoundPage } from '../../app/NotFoundPage';
import { usePageMeta } from '../../app/usePageMeta';
import type { ProfileView_ProfileFragment } from '../../gql/graphql';
import { ProfileError, ProfileSkeleton, ProfileView, profileMeta } from './ProfileView';
import { useProfilePage } from './useProfilePage';

function ProfileMeta({ profile }: { profile: ProfileView_ProfileFragment }) {
  usePageMeta({ ...profileMeta(profile), type: 'profile' });
  return null;
}

/** `/@username`: a member's public page, or the 404 page when it is private, inactive or unknown. */
export function ProfilePage({ username }: { username: string }) {
  const state = useProfilePage(username);
  switch (state.status) {
    case 'loading':
      return <ProfileSkeleton username={username} />;
    case 'error':
      return <ProfileError onRetry={state.retry} />;
    case 'not-found':
      return (
        <Layout>
          <NotFoundPage />
        </Layout>
      );
    case 'ready':
      return (
        <>
          <ProfileMeta profile={state.profile} />
          <ProfileView profile={state.profile} />
        </>
      );
  }
}
