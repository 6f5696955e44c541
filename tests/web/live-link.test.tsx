import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PageActivityDocument } from '../../web/src/features/stats/page-activity.generated';
import { AuthClient } from '../../web/src/session/auth-client';
import { member, refreshed, session, SESSION_STORAGE_KEY, storeSession, stubApi } from '../support/web-api';
import type { LiveApi } from '../support/web-live';
import { startLiveApi } from '../support/web-live';

const UID = 'c0de';

let live: LiveApi;
let stop: (() => void) | null = null;

beforeEach(async () => {
  localStorage.clear();
  live = await startLiveApi();
});
afterEach(async () => {
  stop?.();
  stop = null;
  await live.close();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const storedToken = () =>
  (JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? '{}') as { accessToken?: string }).accessToken;

/** Waits on the real socket's server for `check`, giving each turn of the event loop its chance. */
async function until(check: () => boolean, what: string): Promise<void> {
  await vi.waitFor(
    () => {
      if (!check()) throw new Error(`still waiting: ${what}`);
    },
    { timeout: 30_000, interval: 20 },
  );
}

/** A signed-in member's client, restored from storage as the app starts it. */
async function signedIn(): Promise<{ client: AuthClient; api: ReturnType<typeof stubApi> }> {
  storeSession(session({ sub: UID }));
  const api = stubApi({
    RefreshSession: () => refreshed(UID),
    AuthMe: () => ({ body: { data: { me: member(UID) } } }),
    Logout: () => ({ body: { data: { logout: true } } }),
  });
  const client = new AuthClient({ storage: localStorage });
  stop = client.start();
  await until(() => client.getSnapshot().status === 'signedIn', 'the session restored');
  return { client, api };
}

/** Waits for the subscription to run again on a second connection, which carries the token stored now. */
async function resumedOnNewConnection(): Promise<void> {
  await until(
    () => live.authorizations.length === 2 && live.running('pageActivity') === 1,
    'the subscription resumed on a new connection',
  );
  expect(live.authorizations[1]).toBe(`Bearer ${storedToken() ?? ''}`);
}

/** Publishes a page event and waits until `received` holds it. */
async function publishActivity(kind: string, linkId: string | null, received: unknown[]): Promise<void> {
  live.publish('pageActivity', { __typename: 'PageActivity', kind, linkId, at: new Date().toISOString() });
  await until(() => received.length === 1, 'the event after the reconnection');
  expect(received).toEqual([kind]);
}

/** Signs out and waits for the socket to close with no subscription left running. */
async function signOutClosesSocket(client: AuthClient): Promise<void> {
  await client.signOut();
  await until(() => live.sockets() === 0 && live.running('pageActivity') === 0, 'the socket closed');
}

describe("the app's subscriptions socket", () => {
  it('opens only with a subscription, carrying the current token; reconnects after a refresh; closes at sign-out', async () => {
    const { client, api } = await signedIn();
    // Signed in, with the member read over HTTP, but subscribed to nothing: no socket.
    await until(() => api.count('AuthMe') === 1 || client.getSnapshot().member !== null, 'the member read');
    expect(live.sockets()).toBe(0);
    expect(live.authorizations).toEqual([]);

    const received: unknown[] = [];
    const subscription = client.apollo.subscribe({ query: PageActivityDocument }).subscribe((result) => {
      received.push(result.data?.pageActivity.kind);
    });
    await live.subscribed('pageActivity');
    expect(live.authorizations).toEqual([`Bearer ${storedToken() ?? ''}`]);

    // A refresh brings a new token: the socket reconnects with it and the subscription carries on.
    const before = storedToken();
    await client.renew();
    expect(storedToken()).not.toBe(before);
    await resumedOnNewConnection();
    await publishActivity('view', null, received);

    await signOutClosesSocket(client);
    subscription.unsubscribe();
  });

  it('reconnects with a renewed token when the server closes with 4401 (the token expired), and ends at sign-out', async () => {
    const { client, api } = await signedIn();
    const received: unknown[] = [];
    const subscription = client.apollo.subscribe({ query: PageActivityDocument }).subscribe((result) => {
      received.push(result.error ?? result.data?.pageActivity.kind);
    });
    await live.subscribed('pageActivity');
    const expired = storedToken();
    const refreshes = api.count('RefreshSession');

    // The server refuses the token (it expired while the tab slept): 4401, as on a ended session.
    live.closeSockets(4401, 'Unauthorized');
    await resumedOnNewConnection();
    expect(api.count('RefreshSession')).toBe(refreshes + 1);
    expect(storedToken()).not.toBe(expired);
    await publishActivity('click', 'l1', received);
    expect(client.getSnapshot().status).toBe('signedIn');

    await signOutClosesSocket(client);
    subscription.unsubscribe();
  });

  it('renews once when the server refuses the token again after a renewal, then ends the subscription with its error', async () => {
    const { client, api } = await signedIn();
    const errors: unknown[] = [];
    // Apollo hands a subscription's error to `next`, as the screens read it.
    const subscription = client.apollo.subscribe({ query: PageActivityDocument }).subscribe((result) => {
      if (result.error) errors.push(result.error);
    });
    await live.subscribed('pageActivity');
    const refreshes = api.count('RefreshSession');

    live.refuseWith(4401);
    live.closeSockets(4401, 'Unauthorized');
    await until(() => errors.length === 1, 'the subscription ended with an error');
    // One renewal and one connection with its token, not a loop of them.
    expect(api.count('RefreshSession')).toBe(refreshes + 1);
    expect(live.authorizations).toHaveLength(2);
    subscription.unsubscribe();
  });
});
