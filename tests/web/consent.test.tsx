import { act, cleanup, render } from '@testing-library/react';
import { StrictMode } from 'react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readAppConfig } from '../../web/src/app/config';
import { startConsent } from '../../web/src/consent/consent';
import { ConsentProvider } from '../../web/src/consent/ConsentProvider';
import { loadTagManager, TAG_MANAGER_URL } from '../../web/src/consent/tag-manager';

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
afterEach(cleanup);

describe('the settings the server sends', () => {
  it('reads the container id, and treats a missing or malformed one as none', () => {
    const page = (json: string) => {
      const doc = document.implementation.createHTMLDocument();
      doc.body.innerHTML = `<script id="lampstand-config" type="application/json">${json}</script>`;
      return doc;
    };
    expect(readAppConfig(page('{"gtmContainerId":"GTM-AB12"}'))).toEqual({ gtmContainerId: 'GTM-AB12' });
    expect(readAppConfig(page('{"gtmContainerId":null}'))).toEqual({ gtmContainerId: null });
    expect(readAppConfig(page('{"gtmContainerId":"https://evil.example/x.js"}'))).toEqual({ gtmContainerId: null });
    expect(readAppConfig(page('not json'))).toEqual({ gtmContainerId: null });
    expect(readAppConfig(document.implementation.createHTMLDocument())).toEqual({ gtmContainerId: null });
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

  it('pushes exactly one page_view per route change, StrictMode or not', async () => {
    const router = renderApp(true);
    expect(pageViews()).toEqual(['/']);
    await act(() => router.navigate('/b'));
    await act(() => router.navigate('/b?tab=2'));
    await act(() => router.navigate('/'));
    expect(pageViews()).toEqual(['/', '/b', '/b?tab=2', '/']);
  });

  it('pushes none when there is no tag manager', async () => {
    const router = renderApp(false);
    await act(() => router.navigate('/b'));
    expect(pageViews()).toEqual([]);
  });
});
