import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StatsPage } from '../../web/src/features/stats/StatsPage';
import { AuthClient } from '../../web/src/session/auth-client';
import { AuthProvider } from '../../web/src/session/AuthProvider';
import { RequireAuth } from '../../web/src/session/RequireAuth';
import type { ApiAnswer, ApiRequest } from '../support/web-api';
import { failure, refreshed, session, storeSession, stubApi, SESSION_STORAGE_KEY } from '../support/web-api';
import type { LiveApi } from '../support/web-live';
import { startLiveApi } from '../support/web-live';

const UID = 'f00d';

/** `days` UTC days up to 2026-11-25, oldest first, with `counts` on the last ones. */
function byDay(days: number, counts: { views: number; clicks: number }[] = []) {
  return Array.from({ length: days }, (_unused, index) => {
    const day = new Date(Date.UTC(2026, 10, 25) - (days - 1 - index) * 86_400_000).toISOString().slice(0, 10);
    const count = counts[index - (days - counts.length)] ?? { views: 0, clicks: 0 };
    return { __typename: 'DayStats', day, ...count };
  });
}

function stats(days: number, overrides: Record<string, unknown> = {}): ApiAnswer {
  return {
    body: {
      data: {
        pageStats: {
          __typename: 'PageStats',
          days,
          views: 0,
          clicks: 0,
          clickRate: 0,
          byDay: byDay(days),
          links: [],
          ...overrides,
        },
      },
    },
  };
}

function renderStats(handler: (request: ApiRequest) => ApiAnswer, options: { plus?: boolean } = {}) {
  storeSession(session(options.plus ? { sub: UID, stripeRole: 'plus' } : { sub: UID }));
  const api = stubApi({ RefreshSession: () => refreshed(UID, options), StatsPage: handler });
  render(
    <AuthProvider client={new AuthClient({ storage: localStorage })}>
      <MemoryRouter initialEntries={['/stats']}>
        <Routes>
          <Route
            path="/stats"
            element={
              <RequireAuth>
                <StatsPage />
              </RequireAuth>
            }
          />
        </Routes>
      </MemoryRouter>
    </AuthProvider>,
  );
  return api;
}

beforeEach(() => {
  localStorage.clear();
});
let live: LiveApi | null = null;
afterEach(async () => {
  cleanup();
  await live?.close();
  live = null;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the Stats screen', () => {
  it('shows a free member 7 days in a table and each link’s clicks, with no chart and a way to Plus where it is on sale', async () => {
    const api = renderStats(() =>
      stats(7, {
        views: 4,
        clicks: 1,
        clickRate: 0.25,
        links: [
          {
            __typename: 'LinkStats',
            clicks: 1,
            link: { __typename: 'Link', id: 'a', title: 'Sermons', hidden: false },
          },
          { __typename: 'LinkStats', clicks: 0, link: { __typename: 'Link', id: 'b', title: 'Choir', hidden: false } },
        ],
        byDay: byDay(7, [
          { views: 3, clicks: 0 },
          { views: 1, clicks: 1 },
        ]),
      }),
    );
    expect(await screen.findByText('Loading your stats…')).toBeDefined();
    const table = await screen.findByRole('table', { name: 'Views and clicks, last 7 days' });
    expect(api.requests.find((request) => request.operationName === 'StatsPage')?.variables).toEqual({ days: 7 });
    expect(screen.getByText('25%')).toBeDefined();
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(8);
    // The newest day first.
    const [, today] = rows;
    expect(
      today &&
        within(today)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
    ).toEqual(['1', '1']);
    expect(screen.queryByRole('img')).toBeNull();
    const perLink = screen.getByRole('table', { name: 'Clicks on each link' });
    expect(
      within(perLink)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['LinkClicksShare', 'Sermons1100%', 'Choir00%']);
    expect(screen.getByRole('link', { name: 'Lampstand Plus' }).getAttribute('href')).toBe('/plus');
    expect(screen.queryByText(/No visits yet/)).toBeNull();
    // How people are counted, in one sentence: once a day each, without keeping who they are.
    expect(screen.getByText(/Each visitor counts once a day for your page and once for each link/).textContent).toMatch(
      /key that is thrown away every day.*bots and prefetches are not counted.*stops at 100%/,
    );
  });

  it('says when nobody has visited yet', async () => {
    renderStats(() => stats(7));
    expect(await screen.findByText(/No visits yet/)).toBeDefined();
  });

  it('shows a failure in words, without its code, and loads again on Try again', async () => {
    let calls = 0;
    renderStats(() => {
      calls += 1;
      return calls === 1 ? failure('INTERNAL_SERVER_ERROR', 'Something went wrong.') : stats(7, { views: 2 });
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Something went wrong on our side.');
    expect(alert.textContent).not.toContain('INTERNAL_SERVER_ERROR');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Views and clicks, last 7 days' })).toBeDefined();
  });

  it('gives Plus 90 days as a chart described by its table, and each link’s clicks', async () => {
    const api = renderStats(
      () =>
        stats(90, {
          views: 20,
          clicks: 5,
          clickRate: 0.25,
          byDay: byDay(90, [{ views: 20, clicks: 5 }]),
          links: [
            {
              __typename: 'LinkStats',
              clicks: 4,
              link: { __typename: 'Link', id: 'a', title: 'Sermons', hidden: false },
            },
            {
              __typename: 'LinkStats',
              clicks: 1,
              link: { __typename: 'Link', id: 'b', title: 'Old blog', hidden: true },
            },
          ],
        }),
      { plus: true },
    );
    const chart = await screen.findByRole('img', { name: /^Views and clicks by day, Aug 28 to Nov 25/ });
    expect(api.requests.find((request) => request.operationName === 'StatsPage')?.variables).toEqual({ days: 90 });
    const described = document.getElementById(chart.getAttribute('aria-describedby') ?? '');
    expect(described?.querySelectorAll('tbody tr')).toHaveLength(90);
    const perLink = screen.getByRole('table', { name: 'Clicks on each link' });
    expect(
      within(perLink)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['LinkClicksShare', 'Sermons480%', 'Old blog (hidden)120%']);
    expect(screen.queryByRole('link', { name: 'Lampstand Plus' })).toBeNull();
  });

  it('adds each view and click to the counts as the server counts them, without reading the stats again', async () => {
    live = await startLiveApi();
    const api = renderStats(() =>
      stats(7, {
        views: 4,
        clicks: 1,
        clickRate: 0.25,
        links: [
          {
            __typename: 'LinkStats',
            clicks: 1,
            link: { __typename: 'Link', id: 'a', title: 'Sermons', hidden: false },
          },
          { __typename: 'LinkStats', clicks: 0, link: { __typename: 'Link', id: 'b', title: 'Choir', hidden: false } },
        ],
        byDay: byDay(7, [{ views: 1, clicks: 1 }]),
      }),
    );
    const table = await screen.findByRole('table', { name: 'Views and clicks, last 7 days' });
    await live.subscribed('pageActivity');
    // The socket carries the member's current token, the one the restore's refresh stored.
    const stored = JSON.parse(localStorage.getItem(SESSION_STORAGE_KEY) ?? '{}') as { accessToken?: string };
    expect(live.authorizations).toEqual([`Bearer ${stored.accessToken ?? 'none'}`]);

    const stat = (name: string) => document.querySelector(`[data-stat="${name}"]`)?.textContent;
    const today = () =>
      within(within(table).getAllByRole('row')[1] ?? table)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    live.publish('pageActivity', {
      __typename: 'PageActivity',
      kind: 'view',
      linkId: null,
      at: '2026-11-25T09:30:00.000Z',
    });
    await waitFor(() => {
      expect(stat('views')).toBe('5');
    });
    expect(today()).toEqual(['2', '1']);
    expect(stat('rate')).toBe('20%');

    live.publish('pageActivity', {
      __typename: 'PageActivity',
      kind: 'click',
      linkId: 'b',
      at: '2026-11-25T09:31:00.000Z',
    });
    await waitFor(() => {
      expect(stat('clicks')).toBe('2');
    });
    expect(today()).toEqual(['2', '2']);
    expect(stat('rate')).toBe('40%');
    const perLink = screen.getByRole('table', { name: 'Clicks on each link' });
    expect(
      within(perLink)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['LinkClicksShare', 'Sermons150%', 'Choir150%']);
    expect(api.count('StatsPage')).toBe(1);

    // A click on a link added since the screen loaded cannot be placed: the stats are read again.
    live.publish('pageActivity', {
      __typename: 'PageActivity',
      kind: 'click',
      linkId: 'new',
      at: '2026-11-25T09:32:00.000Z',
    });
    await waitFor(() => {
      expect(api.count('StatsPage')).toBe(2);
    });
  });
});
