import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';
import type { SignedUpMember } from '../support/members.js';
import { signUpMember } from '../support/members.js';
import { checkScreen, heading, logIn } from '../support/screens.js';

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

const PHONES = [
  { width: 320, height: 640 },
  { width: 390, height: 844 },
];

/** A member past the welcome screen, logged in on a phone-sized page. */
async function memberOnPhone(first: string, plus = false): Promise<{ member: SignedUpMember; page: Page }> {
  const member = await signUpMember(api, { first });
  if (plus) await api.app.billing.grant(member.email);
  const welcomed = await api.graphql(
    'mutation { completeWelcome { welcome } }',
    {},
    { token: member.session.accessToken },
  );
  expect(welcomed.errors).toBeUndefined();
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await logIn(page, api.url, member.email, member.password);
  return { member, page };
}

/** Where an element is on the screen (not the page), or a failure if it is not laid out. */
async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const found = await locator.boundingBox();
  if (!found) throw new Error('The element is not on screen');
  return found;
}

/** Whether the whole element is inside the window as it is scrolled now. */
async function inView(page: Page, locator: Locator): Promise<boolean> {
  const { x, y, width, height } = await box(locator);
  const size = page.viewportSize();
  return !!size && x >= 0 && y >= 0 && x + width <= size.width && y + height <= size.height;
}

describe('the editor and the own page on a phone', () => {
  it('shows every settings tab whole, and keeps Copy link and QR code on one row', async () => {
    const { member, page } = await memberOnPhone('Chloe', true);
    await page.goto(`${api.url}/profile`);
    await heading(page, 'Your page');
    const tabs = page.getByRole('navigation', { name: 'Settings' }).getByRole('link');
    expect(await tabs.allInnerTexts()).toEqual(['Page', 'Stats', 'Prayer', 'Verses', 'Account', 'Plus']);
    for (const phone of PHONES) {
      await page.setViewportSize(phone);
      for (const tab of await tabs.all()) expect(await inView(page, tab), `${phone.width} px`).toBe(true);
      const nav = page.getByRole('navigation', { name: 'Settings' });
      expect(await nav.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    }

    await page.goto(`${api.url}/@${member.member.profile.username}`);
    const actions = page.locator('.profile-actions').getByRole('button');
    await actions.first().waitFor();
    expect(await actions.allInnerTexts()).toEqual([expect.stringMatching(/Copy link|Share/), 'QR code & image']);
    for (const phone of PHONES) {
      await page.setViewportSize(phone);
      const [copy, qr] = [await box(actions.nth(0)), await box(actions.nth(1))];
      expect(Math.abs(copy.y - qr.y), `${phone.width} px`).toBeLessThan(1);
      expect(qr.x + qr.width).toBeLessThanOrEqual(phone.width);
      expect(await inView(page, actions.nth(0))).toBe(true);
    }
    await checkScreen(page, 'own-page-actions');
    await page.context().close();
  });

  it('opens the preview at its top, with Save changes and Back to editing in reach, and goes back to the same place', async () => {
    const { page } = await memberOnPhone('Rhoda');
    await page.goto(`${api.url}/profile`);
    await heading(page, 'Your page');
    await page.locator('#links-title').waitFor();
    await page.getByRole('group', { name: 'Layout' }).scrollIntoViewIfNeeded();
    await page.getByRole('radio', { name: 'Centred' }).check();
    // As a tap would: Playwright's click (and focus) would first scroll the sticky bar's button to its
    // place at the end of the form.
    const press = async (button: Locator) => {
      await button.evaluate((element) => {
        (element as HTMLElement).focus({ preventScroll: true });
      });
      await page.keyboard.press('Enter');
    };
    expect(await inView(page, page.getByRole('radio', { name: 'Centred' }))).toBe(true);
    const editingAt = await page.evaluate(() => window.scrollY);
    expect(editingAt).toBeGreaterThan(200);
    await press(page.getByRole('button', { name: 'Preview', exact: true }));
    const save = page.getByRole('button', { name: 'Save changes' });
    const back = page.getByRole('button', { name: 'Back to editing' });
    await back.waitFor();
    const previewTitle = page.getByRole('heading', { name: 'Preview', level: 2 });
    await expect.poll(() => inView(page, previewTitle)).toBe(true);
    expect(await inView(page, save)).toBe(true);
    expect(await inView(page, back)).toBe(true);
    // The bar over the preview is one row, so it takes as little of the phone's screen as it can.
    for (const phone of PHONES) {
      await page.setViewportSize(phone);
      const [saving, going] = [await box(save), await box(back)];
      expect(Math.abs(saving.y - going.y), `${phone.width} px`).toBeLessThan(1);
      expect(going.x + going.width, `${phone.width} px`).toBeLessThanOrEqual(phone.width);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    // The preview shows the change not saved yet.
    expect(await page.locator('#editor-preview .profile').getAttribute('data-layout')).toBe('column');
    await checkScreen(page, 'editor-preview-phone');

    // Read to the end of the preview: the bar stays in reach.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => {
      window.scrollTo({ top: document.documentElement.scrollHeight });
    });
    await page.locator('#editor-preview .verse-card').scrollIntoViewIfNeeded();
    expect(await inView(page, save)).toBe(true);
    expect(await inView(page, back)).toBe(true);

    await press(back);
    await page.getByRole('button', { name: 'Preview', exact: true }).waitFor();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeCloseTo(editingAt, -1);
    expect(await inView(page, page.getByRole('radio', { name: 'Centred' }))).toBe(true);
    await save.click();
    await page.getByText('Your page is saved.').waitFor();
    await page.context().close();
  });
});
