// The whole web app as main.tsx starts it, for component tests that walk between its screens.
import { cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { App } from '../../web/src/app/App';
import { member, refreshed, session, storeSession, stubApi } from './web-api';

/** Each test starts with empty storage at `/`, with no spies or stubbed globals left by the last. */
export function resetAppBetweenTests(): void {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
    window.history.replaceState(null, '', '/');
  });
}

/**
 * The app at `path` for member `uid` signed in on an earlier visit; `beforeRender` runs once the
 * address is set (to watch what the app does from its first render).
 */
export function openAppAsMember(
  path: string,
  handlers: Parameters<typeof stubApi>[0] = {},
  { uid = 'd4e5', beforeRender }: { uid?: string; beforeRender?: () => void } = {},
) {
  storeSession(session({ sub: uid }));
  const api = stubApi({
    RefreshSession: () => refreshed(uid),
    AuthMe: () => ({ body: { data: { me: member(uid) } } }),
    Logout: () => ({ body: { data: { logout: true } } }),
    ...handlers,
  });
  window.history.replaceState(null, '', path);
  beforeRender?.();
  render(<App consent={null} />);
  return api;
}
