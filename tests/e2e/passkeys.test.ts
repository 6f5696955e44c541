import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';
import { signUpMember } from '../support/members.js';
import { checkScreen, heading, newPage } from '../support/screens.js';

/**
 * WebAuthn needs a secure context and a relying party id that is a host name: the app is reached
 * at http://localhost (PUBLIC_URL), so the relying party id is `localhost`.
 */
let api: TestApp;
let browser: TestBrowser;
let site: string;
beforeAll(async () => {
  api = await startTestApp((port) => ({ WEB_DIST_DIR: inject('webDistDir'), PUBLIC_URL: `http://localhost:${port}` }));
  site = api.config.publicUrl;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
  await api.close();
});

/** A page whose browser has a platform authenticator with user verification (the DevTools protocol's virtual one). */
async function pageWithAuthenticator(): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await newPage(browser);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return { context, page };
}

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${site}/login`);
  await heading(page, 'Log in');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

async function logOut(page: Page): Promise<void> {
  await page
    .getByRole('button', { name: /log out/i })
    .first()
    .click();
  await page.getByRole('status').filter({ hasText: 'You are logged out.' }).waitFor();
}

describe('passkeys', () => {
  it('are added in Account, then sign in alone and pass the second step after a password', async () => {
    const { email, password } = await signUpMember(api, { first: 'Lydia' });
    const { context, page } = await pageWithAuthenticator();
    await logIn(page, email, password);
    await page.getByRole('button', { name: 'Make it mine' }).click();
    await heading(page, 'Your page');

    await page.goto(`${site}/account`);
    await heading(page, 'Account');
    const section = page.getByRole('region', { name: 'Passkeys' });
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    await section.getByText('Passkey added.', { exact: false }).waitFor();
    await section.getByRole('button', { name: 'Remove Passkey 1' }).waitFor();
    await checkScreen(page, 'account-passkeys');

    // First factor: no address, no password.
    await logOut(page);
    await page.goto(`${site}/login`);
    await heading(page, 'Log in');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await heading(page, 'Your page');

    // Second factor: the passkey is the account's second step after the password.
    await logOut(page);
    await logIn(page, email, password);
    await heading(page, 'Enter your code');
    await page.getByRole('button', { name: 'Use a passkey instead' }).click();
    await heading(page, 'Your page');

    // Removed, it signs in no more.
    await page.goto(`${site}/account`);
    await section.getByRole('button', { name: 'Remove Passkey 1' }).click();
    await section.getByText('Passkey 1 removed.').waitFor();
    expect(await section.getByRole('list', { name: 'Your passkeys' }).count()).toBe(0);
    await logOut(page);
    await page.goto(`${site}/login`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('alert').filter({ hasText: 'That passkey did not work here.' }).waitFor();
    await context.close();
  });
});
