import { lazy, useEffect, useState } from 'react';
import { ProfileError, ProfileSkeleton, ProfileView } from '../../ui/profile/ProfileView';
import { useReaderTranslation } from '../../lib/reader-translation';
import { visitorTimeZone } from '../../lib/time-zone';
import { TranslationToggle } from '../../ui/verse/TranslationToggle';
import type { ProfilePageQuery } from './profile-page.generated';
import { PrayerRequestLink } from './PrayerRequestLink';
import { fetchPublicProfile } from './public-profile-query';
import { ReportPageLink } from './ReportPageLink';

const ReportIsland = lazy(() => import('./ReportIsland').then((m) => ({ default: m.ReportIsland })));

type PublicPageState =
  { status: 'loading' } | { status: 'error' } | { status: 'ready'; profile: NonNullable<ProfilePageQuery['profile']> };

/**
 * `/@username` as a visitor's first load gets it (web/src/public-page.tsx): the same page as the
 * app's ProfilePage, with React alone: one query over `fetch`, no router, no GraphQL client. The 404
 * page it leaves to the app: `onNotFound` hands the document over. `onShown` is called once the
 * profile is on the page.
 */
export function PublicProfilePage({
  username,
  onNotFound,
  onShown,
}: {
  username: string;
  onNotFound: () => void;
  onShown: () => void;
}) {
  const [translation, chooseTranslation] = useReaderTranslation();
  const [state, setState] = useState<PublicPageState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    // Another translation replaces the verse in place: the page already shown stays until it comes.
    fetchPublicProfile({ username, timeZone: visitorTimeZone(), translation }, controller.signal).then(
      (profile) => {
        if (controller.signal.aborted) return;
        if (profile) setState({ status: 'ready', profile });
        else onNotFound();
      },
      () => {
        // A page already shown stays when another translation cannot be fetched: its verse says
        // which translation it is in.
        if (!controller.signal.aborted) setState((shown) => (shown.status === 'ready' ? shown : { status: 'error' }));
      },
    );
    return () => {
      controller.abort();
    };
  }, [username, translation, attempt, onNotFound]);
  const ready = state.status === 'ready';
  useEffect(() => {
    if (ready) onShown();
  }, [ready, onShown]);

  switch (state.status) {
    case 'loading':
      return <ProfileSkeleton username={username} />;
    case 'error':
      return (
        <ProfileError
          onRetry={() => {
            setState({ status: 'loading' });
            setAttempt((count) => count + 1);
          }}
        />
      );
    case 'ready':
      return (
        <ProfileView
          profile={state.profile}
          verseControls={
            <TranslationToggle value={translation ?? state.profile.translation} onChange={chooseTranslation} />
          }
          footer={
            <>
              {state.profile.prayerButton && (
                <PrayerRequestLink username={state.profile.username} prompt={state.profile.prayerButton.prompt} />
              )}
              <ReportPageLink username={state.profile.username} Form={ReportIsland} />
            </>
          }
        />
      );
  }
}
