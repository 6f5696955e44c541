import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  renderApp,
  renderTab,
  resetAuthBetweenTests,
  SIGNED_OUT,
  state,
  STORAGE_KEY,
  storedSession,
} from '../support/auth-probe';
import { failure, member, refreshed, rotatingSession, session, storeSession, stubApi } from '../support/web-api';
import { installWebLocks } from '../support/web-locks';

resetAuthBetweenTests();

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
