import { act, cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../web/src/app/App';
import { readAppConfig } from '../../web/src/lib/config';
import { startConsent } from '../../web/src/consent/consent';
import { ConsentProvider } from '../../web/src/consent/ConsentProvider';
import type { DataLayerEntry } from '../../web/src/consent/tag-manager';
import {
  loadTagManager,
  pushPageView,
  TAG_MANAGER_URL,
  updateAnalyticsConsent,
} from '../../web/src/consent/tag-manager';
import { failure, member, refreshed, stubApi } from '../support/web-api';

const banner = vi.hoisted(() => ({ runConsentBanner: vi.fn(), showConsentPreferences: vi.fn() }));
vi.mock('../../web/src/consent/banner', () => banner);

function entries(): unknown[] {
  return (window.dataLayer ?? []).map((entry) =>
    Object.prototype.toString.call(entry) === '[object Arguments]' ? Array.from(entry as ArrayLike<unknown>) : entry,
  );
}

function tagScripts(): HTMLScriptElement[] {
  return [...document.querySelectorAll<HTMLScriptElement>('script')].filter((script) =>
    script.src.startsWith(TAG_MANAGER_URL),
  );
}

beforeEach(() => {
  delete window.dataLayer;
  for (const script of document.querySelectorAll('script')) script.remove();
  vi.clearAllMocks();
});
afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

describe('the settings the server sends', () => {
  it('reads the container id, and treats a missing or malformed one as none', () => {
    const page = (json: string) => {
      const doc = document.implementation.createHTMLDocument();
      doc.body.innerHTML = `<script id="lampstand-config" type="application/json">${json}</script>`;
      return doc;
    };
    expect(readAppConfig(page('{"gtmContainerId":"GTM-AB12","supportEmail":"help@example.org"}'))).toEqual({
      gtmContainerId: 'GTM-AB12',
      billing: true,
      supportEmail: 'help@example.org',
    });
    expect(readAppConfig(page('{"gtmContainerId":null}'))).toEqual({
      gtmContainerId: null,
      billing: true,
      supportEmail: null,
    });
    expect(
      readAppConfig(page('{"gtmContainerId":"https://evil.example/x.js","supportEmail":"not an address"}')),
    ).toEqual({
      gtmContainerId: null,
      billing: true,
      supportEmail: null,
    });
    expect(readAppConfig(page('not json'))).toEqual({ gtmContainerId: null, billing: true, supportEmail: null });
    expect(readAppConfig(page('{"gtmContainerId":null,"billing":false}'))).toEqual({
      gtmContainerId: null,
      billing: false,
      supportEmail: null,
    });
    expect(readAppConfig(document.implementation.createHTMLDocument())).toEqual({
      gtmContainerId: null,
      billing: true,
      supportEmail: null,
    });
  });
});

describe('consent management', () => {
  it('does nothing at all without a container', () => {
    expect(startConsent(null)).toBeNull();
    expect(window.dataLayer).toBeUndefined();
    expect(banner.runConsentBanner).not.toHaveBeenCalled();
  });

  it('denies everything first, and loads the tag manager only when analytics are allowed', async () => {
    startConsent('GTM-AB12');
    expect(entries()[0]).toEqual([
      'consent',
      'default',
      { ad_storage: 'denied', analytics_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' },
    ]);
    await vi.waitFor(() => {
      expect(banner.runConsentBanner).toHaveBeenCalledOnce();
    });
    const onChoice = banner.runConsentBanner.mock.calls[0]?.[0] as (granted: boolean) => void;

    onChoice(false);
    expect(tagScripts()).toHaveLength(0);
    expect(entries()).toContainEqual(['consent', 'update', { analytics_storage: 'denied' }]);

    onChoice(true);
    onChoice(true);
    expect(tagScripts().map((script) => script.src)).toEqual([`${TAG_MANAGER_URL}?id=GTM-AB12`]);
    expect(entries()).toContainEqual(['consent', 'update', { analytics_storage: 'granted' }]);
  });

  it('loads the tag manager only once the token of an emailed link has left the address', () => {
    window.history.replaceState(null, '', '/reset-password?token_hash=pkce_5ecret&type=recovery');
    loadTagManager('GTM-AB12');
    expect(tagScripts()).toHaveLength(0);
    window.history.replaceState(null, '', '/reset-password');
    pushPageView('/reset-password');
    expect(tagScripts()).toHaveLength(1);
  });

  it('loads no tag manager that was waiting for the address once consent is withdrawn', () => {
    window.history.replaceState(null, '', '/email-confirmed#access_token=eyJ5ecret&refresh_token=r5ecret');
    loadTagManager('GTM-AB12');
    updateAnalyticsConsent(false);
    window.history.replaceState(null, '', '/email-confirmed');
    pushPageView('/email-confirmed');
    expect(tagScripts()).toHaveLength(0);
  });

  it('adds the tag manager script once however often it is asked', () => {
    loadTagManager('GTM-AB12');
    loadTagManager('GTM-AB12');
    expect(tagScripts()).toHaveLength(1);
    expect(entries().filter((entry) => (entry as { event?: string }).event === 'gtm.js')).toHaveLength(1);
  });
});

describe('page views', () => {
  function pageViews(): string[] {
    return entries()
      .filter((entry) => (entry as { event?: string }).event === 'page_view')
      .map((entry) => (entry as { page_path: string }).page_path);
  }

  /** Like the app: one provider above every page. */
  function renderApp(enabled: boolean) {
    const consent = enabled ? { showPreferences: vi.fn() } : null;
    const router = createMemoryRouter([
      {
        element: (
          <ConsentProvider consent={consent}>
            <Outlet />
          </ConsentProvider>
        ),
        children: [
          { path: '/', element: <h1>a</h1> },
          { path: '/b', element: <h1>b</h1> },
        ],
      },
    ]);
    render(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    );
    return router;
  }

  it('pushes exactly one page_view per page, StrictMode or not, and never the query string', async () => {
    const router = renderApp(true);
    expect(pageViews()).toEqual(['/']);
    await act(() => router.navigate('/b'));
    await act(() => router.navigate('/b?tab=2'));
    await act(() => router.navigate('/'));
    await act(() => router.navigate('/b?email=lydia%40example.com#top'));
    expect(pageViews()).toEqual(['/', '/b', '/', '/b']);
    expect(JSON.stringify(window.dataLayer)).not.toContain('lydia');
  });

  it('pushes none when there is no tag manager', async () => {
    const router = renderApp(false);
    await act(() => router.navigate('/b'));
    expect(pageViews()).toEqual([]);
  });
});

describe('the tokens of emailed links', () => {
  /**
   * Stands in for the tag manager, which reads the address itself whenever an event reaches the
   * data layer: returns each event with the address at that moment.
   */
  function recordAddresses(): { event: string; address: string }[] {
    const seen: { event: string; address: string }[] = [];
    const layer: DataLayerEntry[] = [];
    layer.push = (...items: DataLayerEntry[]) => {
      for (const item of items) {
        const event: unknown = (item as { event?: unknown }).event;
        if (typeof event === 'string') seen.push({ event, address: window.location.href });
      }
      return Array.prototype.push.apply(layer, items);
    };
    window.dataLayer = layer;
    return seen;
  }

  /** The app as main.tsx starts it, for a visitor who allowed analytics on an earlier visit. */
  async function openLink(path: string) {
    window.history.replaceState(null, '', path);
    const seen = recordAddresses();
    const consent = startConsent('GTM-AB12');
    await vi.waitFor(() => {
      expect(banner.runConsentBanner).toHaveBeenCalledOnce();
    });
    const onChoice = banner.runConsentBanner.mock.calls[0]?.[0] as (granted: boolean) => void;
    onChoice(true);
    render(<App consent={consent} />);
    return seen;
  }

  beforeEach(() => {
    localStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('takes the reset token out of the address before the tag manager sees it, and still opens the link with it', async () => {
    // The page logs the failure it shows.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const api = stubApi({
      OpenRecoveryLink: () => failure('INVALID_TOKEN', 'This link or code has expired or was already used.'),
    });
    const seen = await openLink('/reset-password?token_hash=pkce_5ecret&type=recovery');
    await screen.findByRole('heading', { name: 'This link did not work' });
    await vi.waitFor(() => {
      expect(seen.map(({ event }) => event)).toEqual(['gtm.js', 'page_view']);
    });
    expect(window.location.href).not.toContain('5ecret');
    expect(seen.filter(({ address }) => address.includes('5ecret'))).toEqual([]);
    expect(JSON.stringify(window.dataLayer)).not.toContain('5ecret');
    expect(tagScripts()).toHaveLength(1);

    await screen.findByRole('link', { name: 'Send me a new link' });
    expect(api.requests.find((request) => request.operationName === 'OpenRecoveryLink')?.variables).toEqual({
      token: 'pkce_5ecret',
    });
  });

  it('takes the session out of the address of a confirmation link before any page_view', async () => {
    const uid = 'ab12';
    const api = stubApi({
      RefreshSession: () => refreshed(uid),
      AuthMe: () => ({ body: { data: { me: member(uid) } } }),
      // The page asks whether the link's session must still pass two-factor sign-in: it need not.
      EmailLinkTwoFactor: () => ({
        body: { data: { mfaStatus: { __typename: 'MfaStatus', enabled: false, verified: false } } },
      }),
    });
    const seen = await openLink(
      '/email-confirmed#access_token=eyJ5ecret&expires_in=3600&refresh_token=r5ecret&token_type=bearer&type=signup',
    );
    // The link goes straight on to the welcome screen.
    await vi.waitFor(() => {
      expect(window.location.pathname).toBe('/welcome');
    });
    await vi.waitFor(() => {
      expect(seen.map(({ event }) => event).slice(0, 2)).toEqual(['gtm.js', 'page_view']);
    });
    expect(window.location.href).not.toContain('5ecret');
    expect(seen.filter(({ address }) => address.includes('5ecret'))).toEqual([]);
    expect(JSON.stringify(window.dataLayer)).not.toContain('5ecret');
    expect(api.requests.find((request) => request.operationName === 'RefreshSession')?.variables).toEqual({
      refreshToken: 'r5ecret',
    });
  });
});
