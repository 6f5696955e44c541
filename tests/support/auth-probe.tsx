// The session as a page sees it through `useAuth()`, for the tests of AuthClient and AuthProvider.
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { AuthClient } from '../../web/src/session/auth-client';
import { AuthProvider, useAuth } from '../../web/src/session/AuthProvider';
import { SESSION_STORAGE_KEY } from './web-api';

export const STORAGE_KEY = SESSION_STORAGE_KEY;

/** Shows what `useAuth()` offers, and buttons to log in and out. */
function Probe() {
  const auth = useAuth();
  return (
    <div>
      <p data-testid="state">
        {JSON.stringify({
          loading: auth.loading,
          user: auth.user?.first ?? null,
          username: auth.username,
          profile: auth.profile?.name ?? null,
          stripe: auth.stripe,
        })}
      </p>
      <button type="button" onClick={() => void auth.login('lydia@example.com', 'purple cloth merchant')}>
        log in
      </button>
      <button type="button" onClick={() => void auth.logout()}>
        log out
      </button>
    </div>
  );
}

export interface ProbeState {
  loading: boolean;
  user: string | null;
  username: string | null;
  profile: string | null;
  stripe: boolean;
}

export const SIGNED_OUT: ProbeState = { loading: false, user: null, username: null, profile: null, stripe: false };

export function state(): ProbeState {
  return JSON.parse(screen.getByTestId('state').textContent) as ProbeState;
}

export function renderApp() {
  const client = new AuthClient({ storage: localStorage });
  render(
    <AuthProvider client={client}>
      <Probe />
    </AuthProvider>,
  );
  return client;
}

/** One more tab of the same browser: its own client, the same localStorage. */
export function renderTab() {
  const client = new AuthClient({ storage: localStorage });
  const { container } = render(
    <AuthProvider client={client}>
      <Probe />
    </AuthProvider>,
  );
  return { client, state: () => JSON.parse(within(container).getByTestId('state').textContent) as ProbeState };
}

export function storedSession(): unknown {
  return JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
}

/** Each test starts with empty storage and real timers, with no rendered tab or stubbed global left by the last. */
export function resetAuthBetweenTests(): void {
  beforeEach(() => {
    localStorage.clear();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
}
