import { useState } from 'react';
import { BrowserRouter } from 'react-router';
import { AuthClient } from '../session/auth-client';
import { AuthProvider } from '../session/AuthProvider';
import { SignOutNavigation } from '../session/SignOutNavigation';
import type { Consent } from '../consent/consent';
import { ConsentProvider } from '../consent/ConsentProvider';
import { PageLocationProvider } from '../ui/PageLocationProvider';
import { AppRoutes } from './routes';

export function App({ consent }: { consent: Consent | null }) {
  const [auth] = useState(() => new AuthClient());
  return (
    <AuthProvider client={auth}>
      <BrowserRouter>
        <PageLocationProvider>
          <ConsentProvider consent={consent}>
            <SignOutNavigation>
              <AppRoutes />
            </SignOutNavigation>
          </ConsentProvider>
        </PageLocationProvider>
      </BrowserRouter>
    </AuthProvider>
  );
}
