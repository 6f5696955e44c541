import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';
import { insertMember } from '../support/factories.js';
import { openHome, screenshots, seriousA11yViolations } from '../support/screens.js';

const CONTAINER = 'GTM-TEST123';
let api: TestApp;
let browser: TestBrowser;

beforeAll(async () => {
  api = await startTestApp({ WEB_DIST_DIR: inject('webDistDir'), GTM_CONTAINER_ID: CONTAINER });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
  await api.close();
});

/**
 * A visitor's browser. The machine has no internet, so the tag manager is a stub that says it
 * ran; every request for it is counted. The consent library hides itself from automated
 * browsers (navigator.webdriver), which this one would otherwise look like.
 */
async function visitor(): Promise<{ context: BrowserContext; page: Page; tagRequests: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false, configurable: true });
  });
  const tagRequests: string[] = [];
  await context.route('https://www.googletagmanager.com/**', async (route) => {
    tagRequests.push(route.request().url());
    await route.fulfill({
      contentType: 'text/javascript',
      // Tags read the address themselves: keep what this one saw.
      body: 'window.tagManagerRuns = (window.tagManagerRuns || 0) + 1; window.tagManagerSaw = location.href;',
    });
  });
  const page = await context.newPage();
  return { context, page, tagRequests };
}

function dataLayer(page: Page): Promise<unknown[]> {
  // gtag() entries are Arguments objects: turn them into arrays to compare.
  return page.evaluate(() =>
    (window.dataLayer ?? []).map((entry) =>
      Object.prototype.toString.call(entry) === '[object Arguments]' ? Array.from(entry as ArrayLike<unknown>) : entry,
    ),
  );
}

async function pageViews(page: Page): Promise<unknown[]> {
  return (await dataLayer(page)).filter(
    (entry) => typeof entry === 'object' && entry !== null && (entry as { event?: string }).event === 'page_view',
  );
}

const banner = (page: Page) => page.getByRole('dialog', { name: 'May we count your visit?' });

/** Whether the page has added the tag manager's script (a request for it would follow at once). */
function tagManagerAdded(page: Page): Promise<boolean> {
  return page.evaluate(() => document.querySelector('script[data-tag-manager]') !== null);
}

/**
 * Waits until the page has reported the visitor's stored choice, denied, to the tag manager's data
 * layer: the tag manager would be added right after a choice that allowed it, so past this point
 * a page that added none will add none.
 */
async function deniedChoiceApplied(page: Page): Promise<void> {
  await expect.poll(() => dataLayer(page)).toContainEqual(['consent', 'update', { analytics_storage: 'denied' }]);
}

describe('consent and analytics', () => {
  it('asks first, denies everything by default, and loads no tag before consent', async () => {
    const { context, page, tagRequests } = await visitor();
    await page.goto(api.url);
    await banner(page).waitFor();
    const layer = await dataLayer(page);
    expect(layer[0]).toEqual([
      'consent',
      'default',
      { ad_storage: 'denied', analytics_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' },
    ]);
    // The banner asks once its library has run, which is also what would have added the tag.
    expect(await tagManagerAdded(page)).toBe(false);
    expect(tagRequests).toEqual([]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, 'consent-banner');
    await context.close();
  });

  it('loads the tag manager once after analytics consent, and counts one page view per navigation', async () => {
    const { context, page, tagRequests } = await visitor();
    await openHome(page, api.url);
    await page.getByRole('button', { name: 'Allow analytics' }).click();
    await expect.poll(() => page.evaluate(() => (window as { tagManagerRuns?: number }).tagManagerRuns)).toBe(1);
    expect(tagRequests).toEqual([`https://www.googletagmanager.com/gtm.js?id=${CONTAINER}`]);
    expect(await dataLayer(page)).toContainEqual(['consent', 'update', { analytics_storage: 'granted' }]);
    expect(await pageViews(page)).toEqual([expect.objectContaining({ page_path: '/' })]);

    await page.getByRole('link', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Log in' }).waitFor();
    await page.getByRole('link', { name: 'Lampstand home' }).click();
    await page.locator('.verse-text').waitFor();
    expect(await pageViews(page)).toEqual([
      expect.objectContaining({ page_path: '/' }),
      expect.objectContaining({ page_path: '/login' }),
      expect.objectContaining({ page_path: '/' }),
    ]);

    await page.reload();
    await page.locator('.verse-text').waitFor();
    await expect.poll(() => tagRequests.length).toBe(2);
    expect(await banner(page).count()).toBe(0);
    await context.close();
  });

  it("asks on a member's public page too, and counts one page view for it", async () => {
    const { profile } = await insertMember(api.dataSource, { profile: { name: 'Tabitha' } });
    const { context, page, tagRequests } = await visitor();
    await page.goto(`${api.url}/@${profile.username}`);
    await page.getByRole('heading', { name: 'Tabitha' }).waitFor();
    await page.getByRole('button', { name: 'Allow analytics' }).click();
    await expect.poll(() => tagRequests.length).toBe(1);
    expect(await pageViews(page)).toEqual([expect.objectContaining({ page_path: `/@${profile.username}` })]);
    // The page's footer reopens the choice.
    await page.getByRole('button', { name: 'Cookie settings' }).click();
    await page.getByRole('dialog').first().waitFor();
    expect(await pageViews(page)).toHaveLength(1);
    await context.close();
  });

  it('shows the tag manager no token of a password reset link', async () => {
    const { context, page } = await visitor();
    await page.goto(api.url);
    await page.getByRole('button', { name: 'Allow analytics' }).click();
    await expect.poll(() => page.evaluate(() => (window as { tagManagerRuns?: number }).tagManagerRuns)).toBe(1);

    await page.goto(`${api.url}/reset-password?token_hash=pkce_5ecret&type=recovery`);
    await page.getByRole('heading', { name: 'This link did not work' }).waitFor();
    await expect
      .poll(() => page.evaluate(() => (window as { tagManagerSaw?: string }).tagManagerSaw))
      .toBe(`${api.url}/reset-password`);
    expect(page.url()).toBe(`${api.url}/reset-password`);
    expect(await pageViews(page)).toEqual([
      { event: 'page_view', page_path: '/reset-password', page_location: `${api.url}/reset-password` },
    ]);
    expect(JSON.stringify(await dataLayer(page))).not.toContain('5ecret');
    await context.close();
  });

  it('loads no tag on later visits once consent is withdrawn', async () => {
    const { context, page, tagRequests } = await visitor();
    await openHome(page, api.url);
    await page.getByRole('button', { name: 'Allow analytics' }).click();
    await expect.poll(() => tagRequests.length).toBe(1);

    await page.getByRole('button', { name: 'Cookie settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Cookie settings' });
    await settings.waitFor();
    await screenshots(page, 'consent-settings');
    await settings.getByRole('button', { name: 'Only necessary' }).click();
    expect(await dataLayer(page)).toContainEqual(['consent', 'update', { analytics_storage: 'denied' }]);

    await page.reload();
    await deniedChoiceApplied(page);
    expect(await tagManagerAdded(page)).toBe(false);
    expect(tagRequests).toHaveLength(1);
    await context.close();
  });

  it('loads no tag when the visitor declines', async () => {
    const { context, page, tagRequests } = await visitor();
    await page.goto(api.url);
    await banner(page).getByRole('button', { name: 'Only necessary' }).click();
    await page.reload();
    await deniedChoiceApplied(page);
    expect(await tagManagerAdded(page)).toBe(false);
    expect(tagRequests).toEqual([]);
    expect(await banner(page).count()).toBe(0);
    await context.close();
  });
});
