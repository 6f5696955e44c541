import { useState } from 'react';
import { BrowserRouter } from 'react-router';
import { AuthClient } from '../auth/auth-client';
import { AuthProvider } from '../auth/AuthProvider';
import { SignOutNavigation } from '../auth/SignOutNavigation';
import type { Consent } from '../consent/consent';
import { ConsentProvider } from '../consent/ConsentProvider';
import { AppRoutes } from './routes';

export function App({ consent }: { consent: Consent | null }) {
  const [auth] = useState(() => new AuthClient());
  return (
    <AuthProvider client={auth}>
      <BrowserRouter>
        <ConsentProvider consent={consent}>
          <SignOutNavigation>
            <AppRoutes />
          </SignOutNavigation>
        </ConsentProvider>
      </BrowserRouter>
    </AuthProvider>
  );
}
