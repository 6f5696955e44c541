import { describe, expect, it } from 'vitest';
import { signUpMember } from '../support/members.js';
import { checkScreen, heading, newPage } from '../support/screens.js';
import { mailTokens } from '../support/smtp.js';
import { mailingSite } from '../support/site.js';

const site = mailingSite();

describe('signing in with an emailed link', () => {
  it('mails the member a link from the login page, and the link signs them in', async () => {
    const { email } = await signUpMember(site.api, { first: 'Lydia' });
    const { context, page } = await newPage(site.browser);

    await page.goto(`${site.api.url}/login`);
    await heading(page, 'Log in');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.locator('#login-email-error').filter({ hasText: 'Enter your email address' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('login-email');

    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    const notice = page.getByRole('status').filter({ hasText: 'inbox' });
    await notice.waitFor();
    expect(await notice.innerText()).toBe('Please check your inbox.');
    await checkScreen(page, 'login-link-sent');

    const mail = await site.smtp.nextMessage(email);
    expect(mail.subject).toBe('Your Lampstand sign-in link');
    const { link } = mailTokens(mail);
    await page.goto(link);
    // Straight on, with no "You are logged in / Continue" page: a member who has not seen the
    // welcome screen yet is shown it first, signed in by the link.
    await heading(page, 'Welcome to Lampstand, Lydia');
    // The session's tokens do not stay in the address bar.
    expect(new URL(page.url()).hash).toBe('');
    // The heading has the focus for screen readers, with no ring: nobody pressed a key.
    const focused = await page.evaluate(() => {
      const element = document.activeElement;
      return element ? { tag: element.tagName, outline: getComputedStyle(element).outlineStyle } : null;
    });
    expect(focused).toEqual({ tag: 'H1', outline: 'none' });
    await checkScreen(page, 'login-link-signed-in');
    expect(await page.evaluate(() => localStorage.getItem('lampstand.session'))).not.toBeNull();

    // The link works once.
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('status').filter({ hasText: 'You are logged out.' }).waitFor();
    await page.goto(link);
    await heading(page, 'This link did not work');
    await context.close();
  });

  it('signs in on a phone by the code typed from a mail read on another device', async () => {
    const { email } = await signUpMember(site.api, { first: 'Phoebe' });
    const laptop = await newPage(site.browser);
    await laptop.page.goto(`${site.api.url}/login`);
    await laptop.page.getByLabel('Email address').fill(email);
    await laptop.page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await laptop.page.getByRole('status').filter({ hasText: 'Please check your inbox.' }).waitFor();
    // The page that asked offers the box at once.
    await laptop.page.getByLabel('6-digit code from the email').waitFor();
    await laptop.context.close();
    const { otp } = mailTokens(await site.smtp.nextMessage(email));

    const phone = await site.browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'en-US',
      isMobile: true,
    });
    const page = await phone.newPage();
    await page.goto(`${site.api.url}/login`);
    await heading(page, 'Log in');
    await page.getByRole('button', { name: 'I have a code from an email' }).click();
    const box = page.getByLabel('6-digit code from the email');
    expect(await box.getAttribute('inputmode')).toBe('numeric');
    expect(await box.getAttribute('autocomplete')).toBe('one-time-code');
    await box.fill('123 456');
    await page.getByRole('button', { name: 'Log in with the code' }).click();
    await page
      .locator('#login-email-error')
      .filter({ hasText: 'Enter the email address the code was sent to.' })
      .waitFor();

    await page.getByLabel('Email address').fill(email.toUpperCase());
    const wrong = otp === '000000' ? '111111' : '000000';
    await box.fill(wrong);
    await page.getByRole('button', { name: 'Log in with the code' }).click();
    await page.locator('#login-email-code-error').filter({ hasText: 'That code did not work' }).waitFor();
    await checkScreen(page, 'login-email-code-refused');

    await box.fill(`${otp.slice(0, 3)} ${otp.slice(3)}`);
    await page.getByRole('button', { name: 'Log in with the code' }).click();
    await heading(page, 'Welcome to Lampstand, Phoebe');
    expect(await page.evaluate(() => localStorage.getItem('lampstand.session'))).not.toBeNull();
    await checkScreen(page, 'login-email-code-signed-in');
    await phone.close();
  });

  it('answers an address without an account the same, and mails nothing', async () => {
    const { context, page } = await newPage(site.browser);
    await page.goto(`${site.api.url}/login`);
    await page.getByLabel('Email address').fill('nobody-here@example.org');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByRole('status').filter({ hasText: 'Please check your inbox.' }).waitFor();
    expect(site.smtp.messages.filter((message) => message.to.includes('nobody-here@example.org'))).toHaveLength(0);
    await context.close();
  });

  it('sends a PKCE link that another app asked for back to that app, from the confirmation and reset pages', async () => {
    const { context, page } = await newPage(site.browser);
    await page.goto(`${site.api.url}/email-confirmed?code=0b7e4f6c-5d0e-4f51-9d8e-2f1a3c4b5d6e`);
    await heading(page, 'Back to your app');
    await page.getByRole('status').filter({ hasText: 'Go back to that app to continue' }).waitFor();
    expect(new URL(page.url()).search).toBe('');

    await page.goto(
      `${site.api.url}/email-confirmed?error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired`,
    );
    await heading(page, 'This link did not work');
    // Said for people: neither the identity service's own sentence nor its code.
    await page.getByRole('alert').filter({ hasText: 'This link has expired or was already used.' }).waitFor();
    expect(await page.getByText('otp_expired').count()).toBe(0);

    await page.goto(`${site.api.url}/reset-password?code=0b7e4f6c-5d0e-4f51-9d8e-2f1a3c4b5d6e`);
    await heading(page, 'Go back to the app');
    expect(new URL(page.url()).search).toBe('');
    await checkScreen(page, 'reset-password-other-app');
    await context.close();
  });
});
