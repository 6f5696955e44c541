import { useState } from 'react';
import type { ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import { AuthClient } from '../session/auth-client';
import { AuthProvider } from '../session/AuthProvider';
import { SignOutNavigation } from '../session/SignOutNavigation';
import type { Consent } from '../consent/consent';
import { ConsentProvider } from '../consent/ConsentProvider';
import { PageLocationProvider } from '../ui/PageLocationProvider';
import { AppRoutes } from './routes';

/** Puts the app's pages inside a router. */
export type RouterFrame = (pages: ReactNode) => ReactNode;

const browserHistory: RouterFrame = (pages) => <BrowserRouter>{pages}</BrowserRouter>;

/**
 * The whole app. `auth` is the session it starts with (by default a new one from this browser's
 * storage); `router` is the browser's history unless the server renders one address (web/src/ssr.tsx);
 * `counted` is a path whose `page_view` the page pushed before the app arrived.
 */
export function App({
  consent,
  auth,
  router = browserHistory,
  counted,
}: {
  consent: Consent | null;
  auth?: AuthClient;
  router?: RouterFrame;
  counted?: string | undefined;
}) {
  const [client] = useState(() => auth ?? new AuthClient());
  return (
    <AuthProvider client={client}>
      {router(
        <PageLocationProvider>
          <ConsentProvider consent={consent} counted={counted}>
            <SignOutNavigation>
              <AppRoutes />
            </SignOutNavigation>
          </ConsentProvider>
        </PageLocationProvider>,
      )}
    </AuthProvider>
  );
}
