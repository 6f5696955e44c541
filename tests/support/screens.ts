import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestBrowser } from './browser.js';

/** Where the browser tests leave their screenshots (git-ignored), to look at after a run. */
export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../test-results/screenshots');

/** A phone, the narrowest phone we support, and a laptop. */
export const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'narrow', width: 320, height: 640 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

let announced = false;

/** Saves full-page screenshots of `page` at every viewport, as `<name>-<viewport>.png`. */
export async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  if (!announced) {
    console.info(`screenshots: ${SCREENSHOT_DIR}`);
    announced = true;
  }
  const original = page.viewportSize();
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${viewport.name}.png`), fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}

/**
 * The serious and critical accessibility problems axe-core finds on the page, described for a
 * failure message. `exclude` leaves out parts we do not render ourselves and cannot mend.
 */
export async function seriousA11yViolations(page: Page, exclude: string[] = []): Promise<string[]> {
  let builder = new AxeBuilder({ page });
  for (const selector of exclude) builder = builder.exclude(selector);
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact ?? ''}): ${violation.help} — ${violation.nodes
          .map((node) => node.target.join(' '))
          .join(', ')}`,
    );
}

/** A page in a fresh browser context: a laptop screen in Chicago, in US English. */
export async function newPage(browser: TestBrowser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    timezoneId: 'America/Chicago',
    locale: 'en-US',
  });
  return { context, page: await context.newPage() };
}

/** Every screen: no serious or critical accessibility problem, and screenshots to look at. */
export async function checkScreen(page: Page, name: string): Promise<void> {
  expect(await seriousA11yViolations(page), name).toEqual([]);
  await screenshots(page, name);
}

/**
 * Opens the home page and waits until it shows the verse of the browser's own day, which the
 * page's islands ask for at once by GET (the app, loaded at the visitor's first use of the page,
 * takes it over as it stands), or the app itself for a member signed in on this browser.
 */
export async function openHome(page: Page, url: string): Promise<void> {
  const asked = page.waitForResponse(
    (response) =>
      new URL(response.url()).searchParams.get('operationName') === 'LandingPage' ||
      (response.request().postData()?.includes('"operationName":"LandingPage"') ?? false),
  );
  await page.goto(url);
  await (await asked).finished();
  await page.locator('section.today[aria-busy="false"]').waitFor();
}

/**
 * Waits until the app owns the home page's markup (app/boot.tsx takes it over at the visitor's
 * first use of the page): React keeps its own properties on each element it took over.
 */
export async function appOwnsHome(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const heading = document.getElementById('landing-title');
    return heading !== null && Object.keys(heading).some((key) => key.startsWith('__reactFiber$'));
  });
}

/** Waits for the screen whose main heading is `name`. */
export async function heading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

/** Logs in through the log-in page, as a member would, and waits to be taken on from it. */
export async function logIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}
