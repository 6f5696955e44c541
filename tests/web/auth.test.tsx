import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthClient } from '../../web/src/session/auth-client';
import { AuthProvider, useAuth } from '../../web/src/session/AuthProvider';
import {
  failure,
  member,
  refreshed,
  rotatingSession,
  SESSION_STORAGE_KEY,
  session,
  storeSession,
  stubApi,
} from '../support/web-api';
import { installWebLocks } from '../support/web-locks';

const STORAGE_KEY = SESSION_STORAGE_KEY;

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

interface ProbeState {
  loading: boolean;
  user: string | null;
  username: string | null;
  profile: string | null;
  stripe: boolean;
}

const SIGNED_OUT: ProbeState = { loading: false, user: null, username: null, profile: null, stripe: false };

function state(): ProbeState {
  return JSON.parse(screen.getByTestId('state').textContent) as ProbeState;
}

function renderApp() {
  const client = new AuthClient({ storage: localStorage });
  render(
    <AuthProvider client={client}>
      <Probe />
    </AuthProvider>,
  );
  return client;
}

/** One more tab of the same browser: its own client, the same localStorage. */
function renderTab() {
  const client = new AuthClient({ storage: localStorage });
  const { container } = render(
    <AuthProvider client={client}>
      <Probe />
    </AuthProvider>,
  );
  return { client, state: () => JSON.parse(within(container).getByTestId('state').textContent) as ProbeState };
}

function storedSession(): unknown {
  return JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
}

beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('AuthProvider', () => {
  it('renders its pages only once the first auth state is known', async () => {
    const uid = 'a1b2';
    storeSession(session({ sub: uid }));
    let answer: (value: { body: object }) => void = () => undefined;
    const api = stubApi({
      RefreshSession: () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    });
    renderApp();
    expect(screen.queryByTestId('state')).toBeNull();
    expect(screen.getByRole('status', { name: 'Loading' })).toBeDefined();
    await waitFor(() => {
      expect(api.names()).toEqual(['RefreshSession']);
    });
    expect(screen.queryByTestId('state')).toBeNull();
    await act(async () => {
      answer(refreshed(uid));
      await Promise.resolve();
    });
    await waitFor(() => {
      expect(state()).toMatchObject({ loading: false, user: 'Lydia', profile: 'Lydia' });
    });
  });

  it('renders at once for a visitor without a session, signed out', () => {
    const api = stubApi({});
    renderApp();
    expect(state()).toEqual({ loading: false, user: null, username: null, profile: null, stripe: false });
    expect(api.requests).toEqual([]);
  });

  it('force-refreshes the token on sign-in and reads a Plus claim from it', async () => {
    const uid = 'c3d4';
    const first = session({ sub: uid });
    const api = stubApi({
      Login: () => ({ body: { data: { login: { __typename: 'AuthPayload', session: first, member: member(uid) } } } }),
      RefreshSession: () => ({
        body: {
          data: {
            refreshSession: {
              __typename: 'AuthPayload',
              session: session({ sub: uid, stripeRole: 'plus' }),
              member: member(uid),
            },
          },
        },
      }),
    });
    renderApp();
    await userEvent.click(screen.getByRole('button', { name: 'log in' }));
    await waitFor(() => {
      expect(state()).toEqual({ loading: false, user: 'Lydia', username: 'user123cl', profile: 'Lydia', stripe: true });
    });
    expect(api.names()).toEqual(['Login', 'RefreshSession']);
    expect(api.requests[1]?.variables).toEqual({ refreshToken: first.refreshToken });
    expect(api.requests.every((request) => request.authorization === null)).toBe(true);
  });

  it('is not Plus when the token carries no Plus claim', async () => {
    const uid = 'e5f6';
    stubApi({
      Login: () => ({
        body: {
          data: {
            login: {
              __typename: 'AuthPayload',
              session: session({ sub: uid, stripeRole: 'plus' }),
              member: member(uid),
            },
          },
        },
      }),
      RefreshSession: () => refreshed(uid),
    });
    renderApp();
    await userEvent.click(screen.getByRole('button', { name: 'log in' }));
    await waitFor(() => {
      expect(state().user).toBe('Lydia');
    });
    expect(state().stripe).toBe(false);
  });

  it('clears the member and the Apollo cache on sign-out, then ends the session at the server', async () => {
    const uid = 'a7b8';
    const current = session({ sub: uid });
    storeSession(session({ sub: uid }));
    let cacheAtLogout: unknown = null;
    const api = stubApi({
      RefreshSession: () => ({
        body: { data: { refreshSession: { __typename: 'AuthPayload', session: current, member: member(uid) } } },
      }),
      Logout: () => {
        cacheAtLogout = client.apollo.extract();
        return { body: { data: { logout: true } } };
      },
    });
    const client = renderApp();
    await waitFor(() => {
      expect(state().user).toBe('Lydia');
    });
    expect(client.apollo.extract()).not.toEqual({});

    await userEvent.click(screen.getByRole('button', { name: 'log out' }));
    await waitFor(() => {
      expect(api.names()).toContain('Logout');
    });
    expect(state()).toEqual({ loading: false, user: null, username: null, profile: null, stripe: false });
    expect(cacheAtLogout).toEqual({});
    expect(api.requests.find((request) => request.operationName === 'Logout')?.authorization).toBe(
      `Bearer ${current.accessToken}`,
    );
    expect(localStorage.getItem(STORAGE_KEY)).toBeNull();
  });

  it('ends the session at the server with a renewed token when the access token has run out', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const uid = 'e1f2';
    storeSession(session({ sub: uid }));
    const issuedTokens: { accessToken: string; refreshToken: string }[] = [];
    const api = stubApi({
      RefreshSession: () => {
        const next = session({ sub: uid });
        issuedTokens.push(next);
        return {
          body: { data: { refreshSession: { __typename: 'AuthPayload', session: next, member: member(uid) } } },
        };
      },
      Logout: () => ({ body: { data: { logout: true } } }),
    });
    renderApp();
    await vi.waitFor(() => {
      expect(state().user).toBe('Lydia');
    });
    // The laptop sleeps past the token's hour: no timer ran, the stored token has run out.
    vi.setSystemTime(Date.now() + 2 * 3_600_000);

    fireEvent.click(screen.getByRole('button', { name: 'log out' }));
    await vi.waitFor(() => {
      expect(api.names()).toContain('Logout');
    });
    expect(state().user).toBeNull();
    const [first, renewed] = issuedTokens;
    const renewal = api.requests.filter((request) => request.operationName === 'RefreshSession').at(-1);
    expect(renewal?.variables).toEqual({ refreshToken: first?.refreshToken });
    expect(api.requests.find((request) => request.operationName === 'Logout')?.authorization).toBe(
      `Bearer ${renewed?.accessToken ?? ''}`,
    );
  });

  it('refreshes the session a minute before it expires', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const uid = 'c9d0';
    storeSession(session({ sub: uid }));
    let latest = '';
    const api = stubApi({
      RefreshSession: () => {
        const next = session({ sub: uid }, 5 * 60_000);
        latest = next.refreshToken;
        return {
          body: { data: { refreshSession: { __typename: 'AuthPayload', session: next, member: member(uid) } } },
        };
      },
    });
    renderApp();
    await vi.waitFor(() => {
      expect(state().user).toBe('Lydia');
    });
    const refreshes = () => api.names().filter((name) => name === 'RefreshSession').length;
    expect(refreshes()).toBe(1);

    await act(() => vi.advanceTimersByTimeAsync(4 * 60_000 - 1_000));
    expect(refreshes()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    await vi.waitFor(() => {
      expect(refreshes()).toBe(2);
    });
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as { refreshToken?: string };
    expect(stored.refreshToken).toBe(latest);
  });

  it('refreshes the session when the tab comes back after a minute away, so a new plan reaches the token', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const uid = 'b5c6';
    storeSession(session({ sub: uid }));
    let plus = false;
    const api = stubApi({
      RefreshSession: () => ({
        body: {
          data: {
            refreshSession: {
              __typename: 'AuthPayload',
              session: session(plus ? { sub: uid, stripeRole: 'plus' } : { sub: uid }),
              member: member(uid),
            },
          },
        },
      }),
    });
    renderApp();
    await vi.waitFor(() => {
      expect(state().user).toBe('Lydia');
    });
    const refreshes = () => api.names().filter((name) => name === 'RefreshSession').length;
    let visibility: DocumentVisibilityState = 'visible';
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
    const switchTo = (value: DocumentVisibilityState) => {
      visibility = value;
      act(() => {
        document.dispatchEvent(new Event('visibilitychange'));
      });
    };

    try {
      switchTo('hidden');
      await act(() => vi.advanceTimersByTimeAsync(20_000));
      switchTo('visible');
      expect(refreshes()).toBe(1);

      // Meanwhile the member bought Plus in another window.
      plus = true;
      switchTo('hidden');
      await act(() => vi.advanceTimersByTimeAsync(61_000));
      switchTo('visible');
      await vi.waitFor(() => {
        expect(state().stripe).toBe(true);
      });
      expect(refreshes()).toBe(2);
    } finally {
      Reflect.deleteProperty(document, 'visibilityState');
    }
  });

  it('signs out when another tab signs out', async () => {
    const uid = 'e1f2';
    storeSession(session({ sub: uid }));
    stubApi({
      RefreshSession: () => refreshed(uid),
    });
    const client = renderApp();
    await waitFor(() => {
      expect(state().user).toBe('Lydia');
    });

    const oldValue = localStorage.getItem(STORAGE_KEY);
    localStorage.removeItem(STORAGE_KEY);
    act(() => {
      window.dispatchEvent(
        new StorageEvent('storage', { key: STORAGE_KEY, oldValue, newValue: null, storageArea: localStorage }),
      );
    });
    await waitFor(() => {
      expect(state()).toEqual({ loading: false, user: null, username: null, profile: null, stripe: false });
    });
    await waitFor(() => {
      expect(client.apollo.extract()).toEqual({});
    });
  });

  it('renews a refused token once and retries the request', async () => {
    const uid = 'a3b4';
    const stale = session({ sub: uid });
    const fresh = session({ sub: uid });
    storeSession(stale);
    let restored = false;
    const api = stubApi({
      RefreshSession: () => {
        const answer = restored ? fresh : stale;
        restored = true;
        return {
          body: { data: { refreshSession: { __typename: 'AuthPayload', session: answer, member: member(uid) } } },
        };
      },
      UpdateEmail: (request) =>
        request.authorization === `Bearer ${fresh.accessToken}`
          ? {
              body: {
                data: {
                  updateEmail: { __typename: 'EmailChangePayload', pendingEmail: 'new@example.com', message: 'ok' },
                },
              },
            }
          : { status: 401, body: { errors: [{ message: 'expired', extensions: { code: 'UNAUTHENTICATED' } }] } },
    });
    const client = renderApp();
    await waitFor(() => {
      expect(state().user).toBe('Lydia');
    });
    const { UpdateEmailDocument } = await import('../../web/src/features/account/account.generated');
    const result = await client.apollo.mutate({
      mutation: UpdateEmailDocument,
      variables: { email: 'new@example.com' },
    });
    expect(result.data?.updateEmail.pendingEmail).toBe('new@example.com');
    expect(api.names()).toEqual(['RefreshSession', 'UpdateEmail', 'RefreshSession', 'UpdateEmail']);
    expect(state().user).toBe('Lydia');
  });
});

describe.each([
  { locks: true, how: 'across tabs with Web Locks' },
  { locks: false, how: 'within a page without Web Locks' },
])('refreshing one session $how', ({ locks }) => {
  let uninstall: () => void = () => undefined;
  beforeEach(() => {
    if (locks) uninstall = installWebLocks();
  });
  afterEach(() => {
    uninstall();
  });

  it('spends each refresh token once, at start and when the session is due', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const uid = 'd1e2';
    const server = rotatingSession(uid, { inMs: 5 * 60_000 });
    storeSession(server.initial);
    stubApi({ RefreshSession: server.refresh, AuthMe: () => ({ body: { data: { me: member(uid) } } }) });
    const first = renderTab();
    const second = renderTab();
    await vi.waitFor(() => {
      expect([first.state().user, second.state().user]).toEqual(['Lydia', 'Lydia']);
    });
    expect(server.presented).toEqual([server.initial.refreshToken]);

    await act(() => vi.advanceTimersByTimeAsync(4 * 60_000));
    await vi.waitFor(() => {
      expect(server.presented).toHaveLength(2);
      expect(first.client.getSnapshot().session).toEqual(storedSession());
      expect(second.client.getSnapshot().session).toEqual(storedSession());
    });
    expect(new Set(server.presented).size).toBe(2);
    expect([first.state().user, second.state().user]).toEqual(['Lydia', 'Lydia']);
  });
});

describe('refreshing in the face of other tabs and sign-out', () => {
  it('takes the session another tab has just refreshed instead of spending the token again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const uninstall = installWebLocks();
    try {
      const uid = 'f3a4';
      const server = rotatingSession(uid);
      storeSession(server.initial);
      let answerFirst: () => void = () => undefined;
      const firstAnswered = new Promise<void>((resolve) => {
        answerFirst = resolve;
      });
      const api = stubApi({
        // The server spends the token at once, but its answer is slow to reach the first tab.
        RefreshSession: async (request) => {
          const answer = server.refresh(request);
          await firstAnswered;
          return answer;
        },
        AuthMe: () => ({ body: { data: { me: member(uid) } } }),
      });
      const first = renderTab();
      await vi.waitFor(() => {
        expect(server.presented).toHaveLength(1);
      });
      const second = renderTab();
      // Longer than the reuse interval: presenting the spent token now would end the session.
      await act(() => vi.advanceTimersByTimeAsync(15_000));
      answerFirst();

      await vi.waitFor(() => {
        expect([first.state().user, second.state().user]).toEqual(['Lydia', 'Lydia']);
      });
      expect(server.presented).toEqual([server.initial.refreshToken]);
      const shared = first.client.getSnapshot().session;
      expect(shared).toEqual(storedSession());
      expect(second.client.getSnapshot().session).toEqual(shared);
      expect(api.requests.find((request) => request.operationName === 'AuthMe')?.authorization).toBe(
        `Bearer ${shared?.accessToken ?? ''}`,
      );
    } finally {
      uninstall();
    }
  });

  it('stays signed out when a refresh answers after the member signed out', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const uid = 'b7c8';
    storeSession(session({ sub: uid }, 5 * 60_000));
    let answerLate: (answer: { body: object }) => void = () => undefined;
    const api = stubApi({
      // The refresh at start answers at once; the one when the session is due, only after sign-out.
      RefreshSession: () =>
        api.count('RefreshSession') === 1
          ? refreshed(uid, { inMs: 5 * 60_000 })
          : new Promise((resolve) => {
              answerLate = resolve;
            }),
      Logout: () => ({ body: { data: { logout: true } } }),
    });
    const client = renderApp();
    await vi.waitFor(() => {
      expect(state().user).toBe('Lydia');
    });
    await act(() => vi.advanceTimersByTimeAsync(4 * 60_000));
    await vi.waitFor(() => {
      expect(api.count('RefreshSession')).toBe(2);
    });

    fireEvent.click(screen.getByRole('button', { name: 'log out' }));
    await vi.waitFor(() => {
      expect(api.count('Logout')).toBe(1);
    });
    await act(async () => {
      answerLate(refreshed(uid, { inMs: 5 * 60_000 }));
      await vi.advanceTimersByTimeAsync(1_000);
    });
    expect(state()).toEqual(SIGNED_OUT);
    expect(client.getSnapshot().session).toBeNull();
    expect(localStorage.getItem(STORAGE_KEY)).toBeNull();
  });

  it('stays signed out when a sign-in completes after the member signed out', async () => {
    const uid = 'c9d1';
    let answerLate: (answer: { body: object }) => void = () => undefined;
    const api = stubApi({
      Login: () => ({
        body: { data: { login: { __typename: 'AuthPayload', session: session({ sub: uid }), member: member(uid) } } },
      }),
      RefreshSession: () =>
        new Promise((resolve) => {
          answerLate = resolve;
        }),
    });
    const client = renderApp();
    await userEvent.click(screen.getByRole('button', { name: 'log in' }));
    await waitFor(() => {
      expect(api.count('RefreshSession')).toBe(1);
    });

    await userEvent.click(screen.getByRole('button', { name: 'log out' }));
    await act(async () => {
      answerLate(refreshed(uid));
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(state()).toEqual(SIGNED_OUT);
    expect(client.getSnapshot().session).toBeNull();
    expect(localStorage.getItem(STORAGE_KEY)).toBeNull();
  });
});

describe('a refresh the API refuses', () => {
  it.each([
    ['UNAUTHENTICATED', {}],
    ['FORBIDDEN', { identityCode: 'user_banned' }],
    ['BAD_USER_INPUT', { field: 'refreshToken' }],
  ])('ends the session for good on %s', async (code, extensions) => {
    storeSession(session({ sub: 'a1c3' }));
    stubApi({ RefreshSession: () => failure(code, 'Your session has ended.', extensions) });
    const client = renderApp();
    await waitFor(() => {
      expect(client.getSnapshot().status).toBe('signedOut');
    });
    expect(state()).toEqual(SIGNED_OUT);
    expect(localStorage.getItem(STORAGE_KEY)).toBeNull();
  });

  it.each([
    ['an outage', 'INTERNAL_SERVER_ERROR'],
    ['a rate limit', 'RATE_LIMITED'],
    ['a query the API no longer knows (a deploy)', 'GRAPHQL_VALIDATION_FAILED'],
    ['a code this client has never seen', 'SOMETHING_NEW'],
  ])('keeps the session for a later try after %s, in this tab and the others', async (_what, code) => {
    const uid = 'b2d4';
    const stored = session({ sub: uid });
    storeSession(stored);
    stubApi({
      RefreshSession: () => failure(code, 'Something went wrong.'),
      AuthMe: () => ({ body: { data: { me: member(uid) } } }),
    });
    const client = renderApp();
    await waitFor(() => {
      expect(state().user).toBe('Lydia');
    });
    expect(client.getSnapshot().status).toBe('signedIn');
    expect(storedSession()).toMatchObject({ refreshToken: stored.refreshToken });
  });
});
