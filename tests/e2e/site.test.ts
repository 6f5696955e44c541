import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';
import { openHome, screenshots, seriousA11yViolations } from '../support/screens.js';

let api: TestApp;
let browser: TestBrowser;

beforeAll(async () => {
  api = await startTestApp({ WEB_DIST_DIR: inject('webDistDir') });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
  await api.close();
});

describe('the site pages', () => {
  it("shows today's verse and the way to sign up on the landing page", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await openHome(page, api.url);
    expect(await page.getByRole('link', { name: 'Make your page' }).getAttribute('href')).toBe('/signup');
    expect(await page.getByRole('navigation', { name: 'Account' }).getByRole('link').allInnerTexts()).toEqual([
      'Log in',
      'Sign up',
    ]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, 'landing');
    await context.close();
  });

  it('asks for no consent and loads no tag when no tag manager is configured', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const external: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(api.url)) external.push(request.url());
    });
    await openHome(page, api.url);
    expect(await page.locator('#cc-main').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cookie settings' }).count()).toBe(0);
    expect(await page.evaluate(() => window.dataLayer)).toBeUndefined();
    expect(external).toEqual([]);
    await context.close();
  });

  it('shows the not-found page for an unknown address, and leads back home by keyboard', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${api.url}/no/such/page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.title()).toBe('Page not found · Lampstand');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, 'not-found');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.getByRole('link', { name: 'Go to the home page' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'A verse for today, on a page of your own.' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await context.close();
  });

  it('leads from the header to signing up and logging in, moving the focus to each page heading', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await openHome(page, api.url);
    await page.getByRole('link', { name: 'Sign up', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Make your page' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Make your page');
    expect(await page.title()).toBe('Sign up · Lampstand');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, 'signup');
    await page.getByRole('link', { name: 'Log in' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Log in');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { level: 1, name: 'Forgot your password?' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, 'forgot-password');
    await context.close();
  });
});
