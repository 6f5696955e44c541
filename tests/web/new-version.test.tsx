import { cleanup, render, screen } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '../../web/src/ui/ErrorBoundary';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** A page whose code the last deploy deleted, as Chrome reports it. */
function stalePage() {
  return lazy(() =>
    Promise.reject(
      new TypeError('Failed to fetch dynamically imported module: https://lampstand.test/assets/Page-0ld.js'),
    ),
  );
}

function renderStale() {
  const Page = stalePage();
  return render(
    <ErrorBoundary resetKey="/">
      <Suspense fallback={<p>loading</p>}>
        <Page />
      </Suspense>
    </ErrorBoundary>,
  );
}

// One test: the module remembers a reload it has started, as the page would until it unloads.
describe('a page whose code has gone after a deploy', () => {
  it('reloads once by itself, and offers the reload instead when that did not help', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const reload = vi.spyOn(window.location, 'reload').mockImplementation(() => undefined);

    // Reloaded for a new version a moment ago: reloading again would loop.
    sessionStorage.setItem('lampstand.reloadedForNewVersion', String(Date.now() - 5_000));
    renderStale();
    await screen.findByRole('heading', { name: 'This page could not be shown' });
    expect(reload).not.toHaveBeenCalled();
    cleanup();

    // A while later, a stale chunk again: a new deploy, worth one reload.
    sessionStorage.setItem('lampstand.reloadedForNewVersion', String(Date.now() - 5 * 60_000));
    renderStale();
    await vi.waitFor(() => {
      expect(reload).toHaveBeenCalledOnce();
    });
    expect(screen.queryByRole('heading', { name: 'This page could not be shown' })).toBeNull();
    expect(screen.getByRole('status', { name: 'Loading' })).toBeDefined();
    expect(Number(sessionStorage.getItem('lampstand.reloadedForNewVersion'))).toBeGreaterThan(Date.now() - 5_000);
  });
});
