import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';
import { signUpMember } from '../support/members.js';
import { checkScreen, heading, newPage } from '../support/screens.js';

// A server without Stripe keys: Plus is not on sale here.
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

describe('a site where Plus is not on sale', () => {
  it('offers no upgrade in the editor and settings, and does not wait for a checkout', async () => {
    const { email, password } = await signUpMember(api);
    const { context, page } = await newPage(browser);
    await page.goto(`${api.url}/login`);
    await heading(page, 'Log in');
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    // A new member meets the welcome screen first.
    await page.getByRole('button', { name: 'Make it mine' }).click();
    await heading(page, 'Your page');
    expect(await page.getByRole('link', { name: /upgrade to plus/i }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Pin verse' }).count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Settings' }).getByRole('link').allInnerTexts()).toEqual([
      'Page',
      'Stats',
      'Prayer',
      'Verses',
      'Account',
    ]);
    // Plus looks are not offered at all, rather than offered with a note.
    const choices = (legend: string) => page.getByRole('group', { name: legend }).getByRole('radio');
    const names = async (legend: string) =>
      choices(legend).evaluateAll((radios) => radios.map((radio) => radio.closest('label')?.textContent.trim()));
    expect(await names('Theme')).toEqual(['Light', 'Dark']);
    expect(await names('Buttons')).toEqual(['Classic', 'Rounded', 'Outline']);
    expect(await page.getByText(/comes with Plus/).count()).toBe(0);
    await checkScreen(page, 'editor-without-billing');

    // Deleting the account of a member without Plus says nothing of Plus.
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Account' }).click();
    const deletion = page.getByRole('region', { name: 'Delete account' });
    await deletion.getByText(/deletes your account/).waitFor();
    expect(await deletion.textContent()).not.toContain('Plus');

    await page.goto(`${api.url}/plus?checkout=success`);
    await page.getByText('Plus is not on sale here yet').waitFor();
    expect(await page.getByText(/confirming/i).count()).toBe(0);
    await context.close();
  });
});
