import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BillingTestApp } from '../support/billing.js';
import { startBillingApp } from '../support/billing.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';
import { uniqueEmail } from '../support/identity.js';
import { checkScreen, heading, newPage, seriousA11yViolations } from '../support/screens.js';
import { deliver, signEvent } from '../support/stripe-fake.js';

let billing: BillingTestApp;
let browser: TestBrowser;

beforeAll(async () => {
  billing = await startBillingApp({
    WEB_DIST_DIR: inject('webDistDir'),
    // Sign-up, returns and tabs coming back refresh the session many times in one test.
    AUTH_RATE_LIMIT_TOKEN: '1000',
    AUTH_RATE_LIMIT_TOKEN_BURST: '1000',
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
  await billing.close();
});

/** Stripe tells the app about a change, signed as Stripe signs it. */
async function stripeSays(type: string, object: Record<string, unknown> & { id: string }): Promise<void> {
  const response = await deliver(billing.api, signEvent(billing.stripe.event(type, object)));
  expect(response.status).toBe(200);
}

/** The look a visitor's browser renders for a member's page. */
async function visitorSees(username: string) {
  const { context, page } = await newPage(browser);
  const sockets: string[] = [];
  page.on('websocket', (socket) => {
    sockets.push(socket.url());
  });
  await page.goto(`${billing.api.url}/@${username}`);
  await page.locator('.profile .verse-ref').waitFor();
  const look = page.locator('.profile');
  const seen = {
    theme: await look.getAttribute('data-theme'),
    button: await look.getAttribute('data-button'),
    badge: await page.getByText('Plus member').count(),
    verse: await page.locator('.profile .verse-ref').innerText(),
  };
  // The public page subscribes to nothing, so it opens no socket (nor loads the socket's code).
  expect(sockets).toEqual([]);
  return { context, page, seen };
}

/** Makes the tab look hidden, then visible again `awayMs` later by the page's clock. */
async function leaveAndComeBack(page: Page, awayMs: number): Promise<void> {
  const setVisibility = (state: 'hidden' | 'visible') =>
    page.evaluate((value) => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => value });
      document.dispatchEvent(new Event('visibilitychange'));
    }, state);
  await setVisibility('hidden');
  await page.clock.fastForward(awayMs);
  await setVisibility('visible');
}

describe('buying Plus and losing it again', () => {
  it('upgrades a free member through Stripe Checkout, unlocks the Plus looks and verse, and falls back when it ends', async () => {
    const { api, stripe } = billing;
    const { context, page } = await newPage(browser);
    // The page's clock runs as usual; the test moves it on to simulate a tab left for a while.
    await page.clock.install();
    await page.route('https://checkout.stripe.test/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><html lang="en"><title>Stripe Checkout</title><h1>Pay for Lampstand Plus</h1></html>',
      }),
    );

    await page.goto(`${api.url}/signup`);
    await heading(page, 'Make your page');
    await page.getByLabel('First name').fill('Lydia');
    await page.getByLabel('Email address').fill(uniqueEmail('lydia'));
    await page.getByLabel('Password', { exact: true }).fill('purple cloth of thyatira');
    await page.getByRole('button', { name: 'Create my page' }).click();
    await heading(page, 'Welcome to Lampstand, Lydia');
    await page.getByRole('button', { name: 'Make it mine' }).click();
    await heading(page, 'Your page');
    const username = (await page.getByLabel('Username').inputValue()).trim();
    await page.getByText('Pinning a verse comes with Plus.').waitFor();

    // A free member sees the plan on sale.
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Plus' }).click();
    await heading(page, 'Lampstand Plus');
    await page.getByText('You are on the free plan').waitFor();
    const plan = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Lampstand Plus' }) });
    expect(await plan.getByText('$4.99 a month', { exact: true }).isVisible()).toBe(true);
    await checkScreen(page, 'plus-plans');

    // Turning back at Stripe costs nothing.
    await page.goto(`${api.url}/plus?checkout=cancelled`);
    await page.getByText('No charge was made').waitFor();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await checkScreen(page, 'plus-checkout-cancelled');

    await page.getByRole('button', { name: /^Upgrade/ }).click();
    await page.waitForURL(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const session = stripe.checkoutSessions.at(-1);
    if (!session) throw new Error('no checkout session');
    expect(page.url()).toBe(session.url);

    // The member pays; Stripe sends them back before its webhook has reached us.
    const subscription = stripe.setSubscription({
      customer: String(session.customer),
      price: billing.plusPrice,
      status: 'active',
    });
    Object.assign(session, { status: 'complete', subscription: subscription.id });
    // The return page waits on `planChanged` over the app's socket instead of polling.
    // (A refresh reconnects the socket, so every socket the page opens is watched.)
    let listening = false;
    page.on('websocket', (socket) => {
      socket.on('framesent', (frame) => {
        if (String(frame.payload).includes('"PlanChanged"')) listening = true;
      });
    });
    await page.goto(`${api.url}/plus?checkout=success&session_id=${session.id}`);
    await page.getByText('Confirming your payment…').waitFor();
    await expect.poll(() => listening, { timeout: 30_000, interval: 100 }).toBe(true);
    expect(await page.getByRole('button', { name: /^Upgrade/ }).count()).toBe(0);
    await checkScreen(page, 'plus-confirming');
    await stripeSays('checkout.session.completed', session);

    await page.getByText('Welcome to Plus!').waitFor();
    await page.getByText('You have Lampstand Plus').waitFor();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    expect(await page.getByRole('button', { name: 'Manage billing' }).isVisible()).toBe(true);
    await checkScreen(page, 'plus-welcome');

    // The Plus looks save now, and a verse can be pinned.
    await page.getByRole('link', { name: 'your page settings', exact: true }).click();
    await heading(page, 'Your page');
    await page.getByRole('radio', { name: /^Garden/ }).check();
    await page.getByRole('radio', { name: /^Gold/ }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Your page is saved.' }).waitFor();
    expect(await page.getByText('comes with Plus').count()).toBe(0);

    await page.getByLabel('Verse to keep on your page').fill('Jn 3:16');
    await page.getByRole('button', { name: 'Pin verse' }).click();
    await page.getByRole('status').filter({ hasText: 'Your page now keeps John 3:16.' }).waitFor();
    await expect.poll(() => page.locator('.profile--preview .verse-ref').innerText()).toContain('John 3:16');
    await checkScreen(page, 'editor-plus');

    const plus = await visitorSees(username);
    expect(plus.seen).toEqual({ theme: 'gardenTheme', button: 'goldButton', badge: 1, verse: 'John 3:16 KJV' });
    await checkScreen(plus.page, 'profile-plus-pinned');
    await plus.context.close();

    // The member's own page, reached inside the app: its heading takes the focus.
    await page.getByRole('link', { name: 'My page' }).click();
    await heading(page, 'Lydia');
    expect(await page.evaluate(() => [document.activeElement?.tagName, document.activeElement?.textContent])).toEqual([
      'H1',
      'Lydia',
    ]);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A card payment fails: Plus stays for the grace period, with a gentle word.
    Object.assign(subscription, { status: 'past_due' });
    await stripeSays('customer.subscription.updated', subscription);
    await page.goto(`${api.url}/plus`);
    await page.getByText(/Your last payment didn’t go through/).waitFor();
    await checkScreen(page, 'plus-past-due');

    // Stripe ends the subscription. Visitors see the free look at once.
    Object.assign(subscription, { status: 'canceled' });
    await stripeSays('customer.subscription.deleted', subscription);
    const free = await visitorSees(username);
    const today = await api.graphql<{ verseOfTheDay: { ref: string } }>(
      '{ verseOfTheDay(timeZone: "America/Chicago") { ref } }',
    );
    expect(free.seen).toEqual({
      theme: 'lightTheme',
      button: 'normalButton',
      badge: 0,
      verse: `${today.data?.verseOfTheDay.ref ?? ''} KJV`,
    });
    await free.context.close();

    // The member's tab still holds a Plus token until the session is refreshed: coming back to
    // the tab after a while away does that.
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Page' }).click();
    await heading(page, 'Your page');
    expect(await page.getByText('comes with Plus').count()).toBe(0);
    await leaveAndComeBack(page, 65_000);
    await page.getByText('Garden comes with Plus. Your choice is kept').waitFor();
    await page.getByText('Gold comes with Plus. Your choice is kept').waitFor();
    expect(await page.getByRole('radio', { name: /^Garden/ }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: /^Gold/ }).isChecked()).toBe(true);
    await page.getByText('Your pinned verse is kept for when Plus is back').waitFor();
    expect(await page.locator('.profile--preview').getByText('Plus member').count()).toBe(0);
    await checkScreen(page, 'editor-plus-ended');

    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Plus' }).click();
    await heading(page, 'Lampstand Plus');
    await page.getByText('You are on the free plan').waitFor();
    await page.getByText('Your Plus has ended. Your Plus choices are kept for when you come back.').waitFor();
    await page.getByRole('button', { name: /^Upgrade/ }).waitFor();
    await checkScreen(page, 'plus-ended');
    await context.close();
  });
});
