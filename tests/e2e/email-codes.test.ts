import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';
import { uniqueEmail } from '../support/identity.js';
import { LOGIN } from '../support/members.js';
import { checkScreen, heading } from '../support/screens.js';
import type { SmtpListener } from '../support/smtp.js';
import { mailTokens, startSmtpListener } from '../support/smtp.js';

let api: TestApp;
let smtp: SmtpListener;
let browser: TestBrowser;

beforeAll(async () => {
  smtp = await startSmtpListener();
  // Sign-up waits for the confirmation email here, as it does when the operator turns autoconfirm off.
  api = await startTestApp({
    WEB_DIST_DIR: inject('webDistDir'),
    SMTP_URL: smtp.url,
    AUTH_SMTP_MAX_FREQUENCY: '0',
    AUTH_AUTOCONFIRM: 'false',
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
  await api.close();
  await smtp.close();
});

/** A fresh phone: no session, no storage (the mail was read on another device). */
function phone(): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US', isMobile: true });
}

describe('the codes of the confirmation and reset emails, typed on a phone', () => {
  it('confirms a sign-up with the code, then sets a new password with the reset code', async () => {
    const email = uniqueEmail('priscilla');
    const username = `priscilla_${Date.now().toString(36)}`;
    const signUp = await phone();
    const page = await signUp.newPage();
    await page.goto(`${api.url}/signup`);
    await heading(page, 'Make your page');
    await page.getByLabel('First name').fill('Priscilla');
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('tents of Corinth 18');
    await page.getByLabel('Username').fill(username);
    await page.getByRole('button', { name: 'Create my page' }).click();
    await heading(page, 'Check your inbox');
    const confirmation = await smtp.nextMessage(email);
    const { otp: confirmCode } = mailTokens(confirmation);
    const box = page.getByLabel('6-digit code from the email');
    expect(await box.getAttribute('inputmode')).toBe('numeric');
    await checkScreen(page, 'signup-confirmation-code');
    await box.fill(`${confirmCode.slice(0, 3)} ${confirmCode.slice(3)}`);
    await page.getByRole('button', { name: 'Log in with the code' }).click();
    await heading(page, 'Welcome to Lampstand, Priscilla');
    expect(await page.evaluate(() => localStorage.getItem('lampstand.session'))).not.toBeNull();
    await signUp.close();

    // Another fresh phone: the reset email is asked for here and read elsewhere.
    const reset = await phone();
    const resetPage = await reset.newPage();
    await resetPage.goto(`${api.url}/forgot-password`);
    await heading(resetPage, 'Forgot your password?');
    await resetPage.getByLabel('Email address').fill(email);
    await resetPage.getByRole('button', { name: 'Send the link' }).click();
    await resetPage.getByRole('status').filter({ hasText: 'inbox' }).waitFor();
    const { otp: resetCode } = mailTokens(await smtp.nextMessage(email));
    const form = resetPage.getByRole('form', { name: 'Have the code from the email?' });
    expect(await form.getByLabel('Email address').inputValue()).toBe(email);
    const code = form.getByLabel('6-digit code from the email');
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');

    await code.fill(resetCode === '000000' ? '111111' : '000000');
    await form.getByLabel('New password', { exact: true }).fill('Aquila and the tents');
    await form.getByRole('button', { name: 'Save my new password' }).click();
    await resetPage.locator('#reset-code-error').filter({ hasText: 'That code did not work' }).waitFor();
    await checkScreen(resetPage, 'reset-code-refused');

    await code.fill(resetCode);
    await form.getByRole('button', { name: 'Save my new password' }).click();
    await heading(resetPage, 'Your page');
    await resetPage.getByRole('status').filter({ hasText: 'Your new password is set.' }).waitFor();
    await checkScreen(resetPage, 'reset-code-done');
    await reset.close();

    // The new password signs in; the old one does not.
    const fresh = await api.graphql(LOGIN, { input: { email, password: 'Aquila and the tents' } });
    expect(fresh.errors, JSON.stringify(fresh.errors)).toBeUndefined();
    const old = await api.graphql(LOGIN, { input: { email, password: 'tents of Corinth 18' } });
    expect(old.errors?.[0]?.extensions?.code).toBeDefined();
  });
});
