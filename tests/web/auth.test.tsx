import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp, resetAuthBetweenTests, state, STORAGE_KEY } from '../support/auth-probe';
import { member, refreshed, session, storeSession, stubApi } from '../support/web-api';

resetAuthBetweenTests();

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
