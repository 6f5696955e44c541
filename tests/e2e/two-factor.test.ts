import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';
import { signUpMember } from '../support/members.js';
import { checkScreen, heading, newPage } from '../support/screens.js';
import { totpCode } from '../support/totp.js';

let api: TestApp;
let browser: TestBrowser;
beforeAll(async () => {
  api = await startTestApp({ WEB_DIST_DIR: inject('webDistDir'), SUPPORT_EMAIL: 'help@lampstand.example' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
  await api.close();
});

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${api.url}/login`);
  await heading(page, 'Log in');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

describe('two-factor sign-in', () => {
  it('is turned on in Settings with a scanned code, then asked for at the next log-in', async () => {
    const { email, password } = await signUpMember(api, { first: 'Priscilla' });
    const { context, page } = await newPage(browser);
    await logIn(page, email, password);
    await page.getByRole('button', { name: 'Make it mine' }).click();
    await heading(page, 'Your page');

    await page.goto(`${api.url}/account`);
    await heading(page, 'Account');
    const section = page.getByRole('region', { name: 'Two-factor sign-in' });
    await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await section.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await section.getByText('If you lose your phone').waitFor();
    // "Contact us" leads somewhere: the configured support address.
    const support = section.getByRole('link', { name: 'help@lampstand.example' });
    expect(await support.getAttribute('href')).toMatch(/^mailto:help@lampstand\.example\?subject=/);
    const secret = (await section.getByTestId('mfa-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await checkScreen(page, 'account-two-factor-setup');

    await section.getByLabel('Code from your app').fill('000000' === (await totpCode(secret)) ? '111111' : '000000');
    await section.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await section.getByText('That code did not work.').waitFor();

    const usedAt = Date.now();
    await section.getByLabel('Code from your app').fill(await totpCode(secret, usedAt));
    await section.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await section.getByText('Two-factor sign-in is on.', { exact: false }).first().waitFor();
    await section.getByRole('button', { name: 'Turn off two-factor sign-in' }).waitFor();
    await checkScreen(page, 'account-two-factor-on');

    await page
      .getByRole('button', { name: /log out/i })
      .first()
      .click();
    await page.getByRole('status').filter({ hasText: 'You are logged out.' }).waitFor();
    await logIn(page, email, password);
    await heading(page, 'Enter your code');
    await checkScreen(page, 'login-code');
    await page.getByRole('link', { name: 'help@lampstand.example' }).waitFor();
    // The code the setup used is spent; the app's next one signs in.
    await page.getByLabel('Code from your authenticator app').fill(await totpCode(secret, usedAt));
    await page.getByRole('button', { name: 'Verify and log in' }).click();
    await page.getByText('That code did not work.').waitFor();
    await page.getByLabel('Code from your authenticator app').fill(await totpCode(secret, usedAt + 30_000));
    await page.getByRole('button', { name: 'Verify and log in' }).click();
    await heading(page, 'Your page');

    // A new password keeps the session at the level it had: nothing asks for the code again, and
    // what needs two-factor sign-in (the data export) still works.
    await page.goto(`${api.url}/account`);
    await heading(page, 'Account');
    await section.getByRole('button', { name: 'Turn off two-factor sign-in' }).waitFor();
    await page.getByLabel('Current password').fill(password);
    await page.getByLabel('New password').fill('a second quiet lamp');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password is changed.').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download my data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^lampstand-.+\.json$/);
    await page.getByText(/^Saved lampstand-/).waitFor();
    expect(await section.getByRole('button', { name: "Confirm it's you" }).count()).toBe(0);
    // After a reload too: the renewed session is the one kept.
    await page.reload();
    await heading(page, 'Account');
    await section.getByRole('button', { name: 'Turn off two-factor sign-in' }).waitFor();
    expect(await section.getByRole('button', { name: "Confirm it's you" }).count()).toBe(0);

    // Signed in with both factors, the member may turn it off again.
    await section.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
    await section.getByRole('button', { name: 'Set up two-factor sign-in' }).waitFor();
    await context.close();
  });

  it('B13 shows ten recovery codes once; a code signs in once, then it is refused', async () => {
    const { email, password } = await signUpMember(api, { first: 'Lydia' });
    const { context, page } = await newPage(browser);
    await logIn(page, email, password);
    await page.getByRole('button', { name: 'Make it mine' }).click();
    await heading(page, 'Your page');
    await page.goto(`${api.url}/account`);
    await heading(page, 'Account');
    const section = page.getByRole('region', { name: 'Two-factor sign-in' });
    await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = (await section.getByTestId('mfa-secret').innerText()).trim();
    await section.getByLabel('Code from your app').fill(await totpCode(secret));
    await section.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();

    const panel = section.getByRole('region', { name: 'Your recovery codes' });
    await panel.getByText('you will not see them again', { exact: false }).waitFor();
    const codes = (await panel.getByTestId('recovery-codes').locator('code').allInnerTexts()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('link', { name: 'Download codes' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('lampstand-recovery-codes.txt');
    await checkScreen(page, 'account-recovery-codes');
    await panel.getByRole('button', { name: 'I have saved my codes' }).click();
    await panel.waitFor({ state: 'detached' });
    // Shown once: after a reload the codes are gone from the page.
    await page.reload();
    await heading(page, 'Account');
    await section.getByRole('button', { name: 'New recovery codes' }).waitFor();
    expect(await page.getByText(codes[0] ?? '?').count()).toBe(0);

    const logOutAndIn = async () => {
      await page
        .getByRole('button', { name: /log out/i })
        .first()
        .click();
      await page.getByRole('status').filter({ hasText: 'You are logged out.' }).waitFor();
      await logIn(page, email, password);
      await heading(page, 'Enter your code');
      await page.getByRole('button', { name: 'Use a recovery code' }).click();
    };
    await logOutAndIn();
    await page.getByLabel('Recovery code').fill(codes[0] ?? '');
    await page.getByRole('button', { name: 'Verify and log in' }).click();
    await heading(page, 'Your page');

    await logOutAndIn();
    await page.getByLabel('Recovery code').fill(codes[0] ?? '');
    await page.getByRole('button', { name: 'Verify and log in' }).click();
    await page.getByText('That recovery code was used already').waitFor();
    await page.getByLabel('Recovery code').fill(codes[1] ?? '');
    await page.getByRole('button', { name: 'Verify and log in' }).click();
    await heading(page, 'Your page');

    // New codes replace the old ones.
    await page.goto(`${api.url}/account`);
    await heading(page, 'Account');
    await section.getByRole('button', { name: 'New recovery codes' }).click();
    const fresh = (await panel.getByTestId('recovery-codes').locator('code').allInnerTexts()).map((c) => c.trim());
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => codes.includes(code))).toEqual([]);
    await context.close();
  });
});
