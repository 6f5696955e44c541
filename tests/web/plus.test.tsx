import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthClient } from '../../web/src/session/auth-client';
import { AuthProvider } from '../../web/src/session/AuthProvider';
import { RequireAuth } from '../../web/src/session/RequireAuth';
import { PlusPage } from '../../web/src/features/plus/PlusPage';
import type { ApiAnswer, ApiRequest } from '../support/web-api';
import { failure, refreshed, session, SESSION_STORAGE_KEY, storeSession, stubApi } from '../support/web-api';
import type { LiveApi } from '../support/web-live';
import { startLiveApi } from '../support/web-live';

const UID = 'f00d';
const PRICE = 'price_plus_monthly';
const CHECKOUT_URL = 'https://checkout.stripe.test/c/pay/cs_test_1';
const PORTAL_URL = 'https://billing.stripe.test/p/session/test_1';

const PLUS_PLAN = {
  __typename: 'PlusPlan',
  priceId: PRICE,
  name: 'Lampstand Plus',
  description: 'Themes, gold buttons, a verse of your own.',
  amount: 499,
  currency: 'usd',
  interval: 'month',
  intervalCount: 1,
};

function plans(list: object[] = [PLUS_PLAN]): ApiAnswer {
  return { body: { data: { plans: list } } };
}

function standing(overrides: Record<string, unknown> = {}): ApiAnswer {
  return {
    body: {
      data: {
        subscription: {
          __typename: 'PlusSubscription',
          plan: 'free',
          granted: false,
          status: null,
          priceId: null,
          currentPeriodEnd: null,
          cancelAtPeriodEnd: false,
          graceEndsAt: null,
          canManageBilling: false,
          ...overrides,
        },
      },
    },
  };
}

/** Shows the address the app is at, to see the checkout query go. */
function Address() {
  const location = useLocation();
  return <p data-testid="address">{location.pathname + location.search}</p>;
}

type Handlers = Record<string, (request: ApiRequest) => ApiAnswer>;

/** The Plus screen at `path` for a signed-in member whose stored session the app restores. */
function renderPlus(handlers: Handlers, path = '/plus', options: { plus?: boolean } = {}) {
  storeSession(session(options.plus ? { sub: UID, stripeRole: 'plus' } : { sub: UID }));
  const api = stubApi({ RefreshSession: () => refreshed(UID, options), ...handlers });
  const client = new AuthClient({ storage: localStorage });
  render(
    <AuthProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route
            path="/plus"
            element={
              <RequireAuth>
                <PlusPage />
                <Address />
              </RequireAuth>
            }
          />
        </Routes>
      </MemoryRouter>
    </AuthProvider>,
  );
  return api;
}

const address = () => screen.getByTestId('address').textContent;

/** Whether a wait below may go on: 30 s by `performance.now()`, which the fake clock leaves alone. */
const waiting = (start: number) => performance.now() - start < 30_000;

/**
 * Waits for `text` without moving the fake clock (vi.waitFor would advance it), so that the
 * polling's timing can be checked to the millisecond.
 */
async function shown(text: string): Promise<HTMLElement> {
  for (const start = performance.now(); waiting(start);) {
    const found = screen.queryByText(text);
    if (found) return found;
    await act(() => new Promise<void>((resolve) => setImmediate(resolve)));
  }
  throw new Error(`"${text}" never appeared`);
}
/**
 * Waits, without moving the fake clock, for `ready` and for the one `planChanged` subscription to
 * run on a connection that carries the stored (latest) token: each refresh reconnects the socket.
 */
async function listening(live: LiveApi, ready: () => boolean): Promise<void> {
  for (const start = performance.now(); waiting(start);) {
    const token = (JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? '{}') as { accessToken?: string })
      .accessToken;
    if (ready() && live.running('planChanged') === 1 && live.authorizations.at(-1) === `Bearer ${token ?? ''}`) return;
    await act(() => new Promise<void>((resolve) => setImmediate(resolve)));
  }
  throw new Error('the page never listened to planChanged with its latest token');
}
const heading = () => screen.findByRole('heading', { level: 1, name: 'Lampstand Plus' });

let assign: ReturnType<typeof vi.fn<(url: string | URL) => void>>;

beforeEach(() => {
  localStorage.clear();
  assign = vi.fn<(url: string | URL) => void>();
  vi.spyOn(window.location, 'assign').mockImplementation(assign);
});
let live: LiveApi | null = null;
afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  await live?.close();
  live = null;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the Plus screen', () => {
  it('says calmly that Plus is not on sale when billing is not set up, and shows the plan from me', async () => {
    renderPlus({
      PlusPagePlans: () => plans([]),
      PlusPageSubscription: () => failure('BILLING_NOT_CONFIGURED', 'Payments are not set up on this server.'),
    });
    await heading();
    expect(await screen.findByText('Plus is not on sale here yet')).toBeDefined();
    expect(await screen.findByText('You are on the free plan')).toBeDefined();
    expect(screen.queryByRole('button', { name: /Upgrade/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Manage billing' })).toBeNull();
    for (const alert of screen.queryAllByRole('alert')) expect(alert.textContent).toBe('');
  });

  it('offers each plan with its price, and sends the browser to Stripe Checkout on Upgrade', async () => {
    const api = renderPlus({
      PlusPagePlans: () => plans(),
      PlusPageSubscription: () => standing(),
      StartCheckout: () => ({
        body: { data: { startCheckout: { __typename: 'BillingRedirect', url: CHECKOUT_URL } } },
      }),
    });
    const plan = (await screen.findByRole('heading', { level: 3, name: 'Lampstand Plus' })).closest('li');
    if (!plan) throw new Error('no plan card');
    expect(within(plan).getByText('$4.99 a month')).toBeDefined();
    const upgrade = within(plan).getByRole('button', { name: 'Upgrade to Lampstand Plus, $4.99 a month' });

    await userEvent.click(upgrade);
    await waitFor(() => {
      expect(assign).toHaveBeenCalledWith(CHECKOUT_URL);
    });
    expect(api.requests.find((request) => request.operationName === 'StartCheckout')?.variables).toEqual({
      priceId: PRICE,
    });
    expect(upgrade.textContent).toContain('Opening checkout…');

    // Back from Stripe, the browser restores the page from its cache: it is ready again.
    act(() => {
      window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    });
    expect(upgrade.textContent).toMatch(/^Upgrade/);
    expect(upgrade.getAttribute('aria-disabled')).toBeNull();
  });

  it.each([
    ['BILLING_UNAVAILABLE', 'Payments are unavailable right now. Please try again shortly.'],
    ['ALREADY_SUBSCRIBED', 'You already subscribe to Plus; manage it in the billing portal.'],
  ])('explains a checkout refused with %s, and lets the member try again', async (code, message) => {
    renderPlus({
      PlusPagePlans: () => plans(),
      PlusPageSubscription: () => standing(),
      StartCheckout: () => failure(code, message),
    });
    await userEvent.click(await screen.findByRole('button', { name: /^Upgrade/ }));
    // In words alone: the code is for API clients.
    const alert = await screen.findByText(message);
    expect(alert.closest('[role="alert"]')?.textContent).toBe(message);
    expect(assign).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: /^Upgrade/ }).textContent).toMatch(/^Upgrade/);
  });

  it('brings the session and the standing up to date when checkout answers ALREADY_SUBSCRIBED', async () => {
    const api = renderPlus({
      PlusPagePlans: () => plans(),
      PlusPageSubscription: () => standing(),
      StartCheckout: () =>
        failure('ALREADY_SUBSCRIBED', 'You already subscribe to Plus; manage it in the billing portal.'),
    });
    await userEvent.click(await screen.findByRole('button', { name: /^Upgrade/ }));
    await screen.findByText(/You already subscribe to Plus/);
    // The member pays already: the session and the standing are asked for again.
    await waitFor(() => {
      expect(api.count('PlusPageSubscription')).toBe(2);
    });
    expect(api.count('RefreshSession')).toBe(2);
  });

  it('explains a checkout that could not reach the server', async () => {
    renderPlus({
      PlusPagePlans: () => plans(),
      PlusPageSubscription: () => standing(),
      StartCheckout: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: /^Upgrade/ }));
    const alert = await screen.findByText(/We could not reach Lampstand/);
    expect(alert.closest('[role="alert"]')).not.toBeNull();
  });

  it("shows a Plus member's renewal date and opens the billing portal", async () => {
    renderPlus(
      {
        PlusPagePlans: () => plans(),
        PlusPageSubscription: () =>
          standing({
            plan: 'plus',
            status: 'active',
            priceId: PRICE,
            currentPeriodEnd: '2026-08-14T12:00:00.000Z',
            canManageBilling: true,
          }),
        OpenBillingPortal: () => ({
          body: { data: { openBillingPortal: { __typename: 'BillingRedirect', url: PORTAL_URL } } },
        }),
      },
      '/plus',
      { plus: true },
    );
    expect(await screen.findByText('You have Lampstand Plus')).toBeDefined();
    expect(screen.getByText('Plus renews on August 14, 2026.')).toBeDefined();
    expect(screen.queryByRole('heading', { name: 'Plans' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Upgrade/ })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Manage billing' }));
    await waitFor(() => {
      expect(assign).toHaveBeenCalledWith(PORTAL_URL);
    });
  });

  it('says when a cancelled subscription ends', async () => {
    renderPlus(
      {
        PlusPagePlans: () => plans(),
        PlusPageSubscription: () =>
          standing({
            plan: 'plus',
            status: 'active',
            currentPeriodEnd: '2026-08-14T12:00:00.000Z',
            cancelAtPeriodEnd: true,
            canManageBilling: true,
          }),
      },
      '/plus',
      { plus: true },
    );
    expect(
      await screen.findByText(
        'Your Plus ends on August 14, 2026 and will not renew. You can keep it under “Manage billing”.',
      ),
    ).toBeDefined();
  });

  it('gently tells a member whose payment failed how long Plus lasts', async () => {
    renderPlus(
      {
        PlusPagePlans: () => plans(),
        PlusPageSubscription: () =>
          standing({
            plan: 'plus',
            status: 'past_due',
            currentPeriodEnd: '2026-08-14T12:00:00.000Z',
            graceEndsAt: '2026-08-21T12:00:00.000Z',
            canManageBilling: true,
          }),
      },
      '/plus',
      { plus: true },
    );
    const notice = await screen.findByText(/Your last payment didn’t go through/);
    expect(notice.textContent).toContain('Plus stays with you until August 21, 2026');
    // A notice, not an alarm.
    expect(notice.closest('[role="alert"]')).toBeNull();
    expect(screen.getByRole('button', { name: 'Manage billing' })).toBeDefined();
  });

  it('asks again when the plans or the plan could not be loaded', async () => {
    let down = true;
    renderPlus({
      PlusPagePlans: () => {
        if (down) throw new TypeError('Failed to fetch');
        return plans();
      },
      PlusPageSubscription: () => {
        if (down) throw new TypeError('Failed to fetch');
        return standing();
      },
    });
    expect(await screen.findByText(/We couldn’t load the plans/)).toBeDefined();
    expect(await screen.findByText(/We couldn’t load your plan/)).toBeDefined();
    down = false;
    for (const retry of screen.getAllByRole('button', { name: 'Try again' })) await userEvent.click(retry);
    expect(await screen.findByText('$4.99 a month')).toBeDefined();
    expect(await screen.findByText('You are on the free plan')).toBeDefined();
  });
});

describe('coming back from Stripe Checkout', () => {
  it('waits on planChanged, refreshes the session when it comes, then welcomes the member', async () => {
    live = await startLiveApi();
    let webhookArrived = false;
    const api = renderPlus(
      {
        RefreshSession: () => refreshed(UID, { plus: webhookArrived }),
        PlusPagePlans: () => plans(),
        PlusPageSubscription: () =>
          webhookArrived
            ? standing({ plan: 'plus', status: 'active', currentPeriodEnd: '2026-08-14T12:00:00.000Z' })
            : standing(),
      },
      '/plus?checkout=success&session_id=cs_test_1',
    );
    await shown('Confirming your payment…');
    expect(screen.queryByRole('button', { name: /^Upgrade/ })).toBeNull();
    // The restore's refresh, and one as the page starts listening (the webhook may have landed).
    await listening(live, () => api.count('RefreshSession') === 2);

    webhookArrived = true;
    live.publish('planChanged', { __typename: 'Member', plan: 'plus' });
    expect((await shown('Welcome to Plus!')).closest('[role="status"]')).not.toBeNull();
    await shown('Plus renews on August 14, 2026.');
    expect(api.count('RefreshSession')).toBe(3);
    expect(address()).toBe('/plus');
  });

  it('says the payment is still being confirmed after about twenty seconds without polling, and checks again on request', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    live = await startLiveApi();
    let webhookArrived = false;
    const api = renderPlus(
      {
        RefreshSession: () => refreshed(UID, { plus: webhookArrived }),
        PlusPagePlans: () => plans(),
        PlusPageSubscription: () => standing(),
      },
      '/plus?checkout=success&session_id=cs_test_2',
    );
    await shown('Confirming your payment…');
    await listening(live, () => api.count('RefreshSession') === 2);
    await act(() => vi.advanceTimersByTimeAsync(19_000));
    expect(screen.getByText('Confirming your payment…')).toBeDefined();
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(screen.getByText('Your payment is still being confirmed')).toBeDefined();
    expect(api.count('RefreshSession')).toBe(2);
    expect(address()).toBe('/plus');
    expect(screen.queryByRole('button', { name: /^Upgrade/ })).toBeNull();

    act(() => {
      screen.getByRole('button', { name: 'Check again' }).click();
    });
    expect(screen.getByText('Confirming your payment…')).toBeDefined();
    await listening(live, () => api.count('RefreshSession') === 3);
    // Still listening: the confirmation that comes later is taken as it comes.
    webhookArrived = true;
    live.publish('planChanged', { __typename: 'Member', plan: 'plus' });
    await shown('Welcome to Plus!');
  });

  it('says no charge was made when the member left the checkout, and drops the query', async () => {
    const api = renderPlus(
      { PlusPagePlans: () => plans(), PlusPageSubscription: () => standing() },
      '/plus?checkout=cancelled',
    );
    expect(await screen.findByText('No charge was made')).toBeDefined();
    await waitFor(() => {
      expect(address()).toBe('/plus');
    });
    expect(screen.getByText('No charge was made')).toBeDefined();
    expect(await screen.findByRole('button', { name: /^Upgrade/ })).toBeDefined();
    expect(api.count('RefreshSession')).toBe(1);
  });
});
