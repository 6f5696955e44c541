import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { Consent } from '../../consent/consent';
import { ConsentScope } from '../../consent/ConsentScope';
import { ErrorBoundary } from '../../ui/ErrorBoundary';
import { ProfileSkeleton } from '../../ui/profile/ProfileView';
import { PublicProfilePage } from './PublicProfilePage';

/**
 * The public page rendered in the browser, when the server sent `profile.html` without the page in
 * it (a build without its server rendering, or a rendering that failed): the page with React alone,
 * from one query. A member signed in on this browser gets the app instead (`handOver`), and so does
 * a page that cannot be shown after all (the app's 404 page).
 */
export function renderPublicPage({
  container,
  consent,
  username,
  appPage,
  handOver,
  onShown,
}: {
  container: HTMLElement;
  consent: Consent | null;
  username: string;
  appPage: boolean;
  handOver: (unmount: () => void) => void;
  onShown: () => void;
}): void {
  const root = createRoot(container);
  const toApp = () => {
    handOver(() => {
      root.unmount();
    });
  };
  root.render(
    <StrictMode>
      <ConsentScope consent={consent}>
        <ErrorBoundary resetKey={window.location.pathname} frame={(message) => <main id="main">{message}</main>}>
          {appPage ? (
            <ProfileSkeleton username={username} />
          ) : (
            <PublicProfilePage username={username} onNotFound={toApp} onShown={onShown} />
          )}
        </ErrorBoundary>
      </ConsentScope>
    </StrictMode>,
  );
  if (appPage) toApp();
}
