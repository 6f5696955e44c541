// What a new member meets in their first hour (issue 16): messages, focus, the editor's layout and
// the welcome, in real Chromium at a phone's and a laptop's width.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';
import { insertMember } from '../support/factories.js';
import { uniqueEmail } from '../support/identity.js';
import { signUpMember } from '../support/members.js';
import { checkScreen, heading, openHome } from '../support/screens.js';

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

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };

async function open(viewport = LAPTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, timezoneId: 'America/Chicago', locale: 'en-US' });
  return { context, page: await context.newPage() };
}

/** A member past the welcome screen, logged in on `page`, on their editor. */
async function editorOf(page: Page): Promise<string> {
  const { email, password, session, member } = await signUpMember(api, { first: 'Phoebe' });
  const welcomed = await api.graphql('mutation { completeWelcome { welcome } }', {}, { token: session.accessToken });
  expect(welcomed.errors).toBeUndefined();
  await page.goto(`${api.url}/login`);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await heading(page, 'Your page');
  await page.locator('.profile--preview .verse-text').waitFor();
  return member.profile.username;
}

/** The focused element's tag, whether the browser counts its focus as visible, and its outline. */
function focusRing(page: Page) {
  return page.evaluate(() => {
    const focused = document.activeElement;
    if (!focused) return null;
    const style = getComputedStyle(focused);
    return {
      tag: focused.tagName,
      text: focused.textContent,
      ring: style.outlineStyle !== 'none' && style.outlineWidth !== '0px',
      visible: focused.matches(':focus-visible'),
    };
  });
}

describe('focus after a page change', () => {
  it('moves to the new heading with no ring after a click, and with one after a key press', async () => {
    const { context, page } = await open();
    await openHome(page, api.url);

    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Log in' }).click();
    await heading(page, 'Log in');
    await expect.poll(() => focusRing(page)).toMatchObject({ tag: 'H1', text: 'Log in', ring: false });

    await page.getByRole('link', { name: 'Make your page' }).focus();
    await page.keyboard.press('Enter');
    await heading(page, 'Make your page');
    await expect.poll(() => focusRing(page)).toEqual({ tag: 'H1', text: 'Make your page', ring: true, visible: true });
    await context.close();
  });

  it("draws no ring after a click even where the browser's own rule counts the heading's focus as visible", async () => {
    const { context, page } = await open();
    // Chromium counts a heading focused by script as visible unless the last focus came from the
    // mouse: after a click on something that takes no focus (here the page's margin) and a
    // navigation that follows, its rule alone would draw the ring.
    await openHome(page, api.url);
    await page.mouse.click(4, 400);
    await page
      .getByRole('navigation', { name: 'Account' })
      .getByRole('link', { name: 'Log in' })
      .evaluate((link: HTMLElement) => {
        link.click();
      });
    await heading(page, 'Log in');
    await expect.poll(() => focusRing(page)).toEqual({ tag: 'H1', text: 'Log in', ring: false, visible: true });
    await context.close();
  });
});

describe("the editor's save bar", () => {
  it.each([
    ['a phone', PHONE],
    ['a laptop', LAPTOP],
  ])('covers no choice on %s, wherever the member scrolls', async (_name, viewport) => {
    const { context, page } = await open(viewport);
    await editorOf(page);
    const overlaps = await page.evaluate(async () => {
      const bar = document.querySelector('.editor-form button[type="submit"]');
      if (!bar) throw new Error('no save button');
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const covered: string[] = [];
      const check = (choice: Element) => {
        const a = choice.getBoundingClientRect();
        const b = (bar.closest('.editor-savebar') ?? bar).getBoundingClientRect();
        const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        if (overlap) covered.push(choice.textContent.trim());
      };
      const choices = [...document.querySelectorAll('.editor-form label, .editor-form input, .editor-form textarea')];
      for (const choice of choices) {
        // As the browser scrolls a control into view when it is tabbed to.
        choice.scrollIntoView({ block: 'end' });
        await frame();
        check(choice);
      }
      window.scrollTo(0, document.documentElement.scrollHeight);
      await frame();
      for (const choice of choices) {
        const box = choice.getBoundingClientRect();
        if (box.bottom > 0 && box.top < window.innerHeight) check(choice);
      }
      return covered;
    });
    expect(overlaps).toEqual([]);
    await context.close();
  });

  it('brings the preview beside the theme picker on a phone', async () => {
    const { context, page } = await open(PHONE);
    await editorOf(page);
    await page.getByRole('radio', { name: /^Dark/ }).check();
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const top = await page.getByRole('heading', { name: 'Preview', exact: true }).evaluate((element) => {
      return element.getBoundingClientRect().top;
    });
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(PHONE.height / 2);
    expect(await page.locator('.profile--preview').getAttribute('class')).toContain('darkTheme');
    await page.getByRole('button', { name: 'Back to editing' }).click();
    expect(await page.getByRole('radio', { name: /^Dark/ }).isChecked()).toBe(true);
    await context.close();
  });
});

describe('unsaved changes in the editor', () => {
  it('are not lost without a question, in the app or on reload', async () => {
    const { context, page } = await open();
    await editorOf(page);
    await page.getByLabel('Name', { exact: true }).fill('Phoebe of Cenchreae');

    const questions: string[] = [];
    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Account' }).click();
    await expect.poll(() => questions).toEqual(['You have unsaved changes. Leave this page and lose them?']);
    expect(new URL(page.url()).pathname).toBe('/profile');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Phoebe of Cenchreae');

    const kinds: string[] = [];
    page.once('dialog', (dialog) => {
      kinds.push(dialog.type());
      void dialog.accept();
    });
    await page.reload();
    expect(kinds).toEqual(['beforeunload']);
    await heading(page, 'Your page');

    // Saved, nothing is asked.
    await page.getByLabel('Name', { exact: true }).fill('Phoebe');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Your page is saved.' }).waitFor();
    page.on('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Account' }).click();
    await heading(page, 'Account');
    expect(questions).toHaveLength(1);
    await context.close();
  });
});

describe('messages', () => {
  it('say what is wrong in words, once, next to the field, and go when it is mended', async () => {
    const { context, page } = await open();
    await page.goto(`${api.url}/login`);
    await heading(page, 'Log in');
    await page.getByRole('button', { name: 'Log in' }).click();
    const alert = page.locator('form [role="alert"]');
    await expect.poll(() => alert.innerText()).toBe('Please correct the highlighted fields.');
    await page.getByLabel('Email address').fill('ruth@example.com');
    await page.getByLabel('Password').fill('something');
    await expect.poll(() => alert.innerText()).toBe('');
    await context.close();
  });

  it('offer no Plus look where Plus is not sold, rather than one refused on saving', async () => {
    const { context, page } = await open();
    await editorOf(page);
    await page.getByRole('radio', { name: /^Light/ }).waitFor();
    expect(await page.getByRole('radio', { name: /^Sunrise/ }).count()).toBe(0);
    expect(await page.getByRole('radio', { name: /^Gold/ }).count()).toBe(0);
    expect(await page.locator('.editor-form').getByText(/Plus/).count()).toBe(0);
    await context.close();
  });

  it('tell a wrong password at the field only, without the identity code', async () => {
    const { context, page } = await open();
    await editorOf(page);
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Account' }).click();
    await heading(page, 'Account');
    await page.getByRole('button', { name: 'Delete my account…' }).click();
    await page.getByLabel('Your password, to confirm').fill('not my password at all');
    await page.getByRole('button', { name: 'Delete my account for good' }).click();
    const fieldError = page.locator('#delete-password-error');
    await fieldError.waitFor();
    expect(await fieldError.innerText()).not.toMatch(/\(|_/);
    const section = page.locator('.account-section--danger');
    expect(await section.locator('[role="alert"]').innerText()).toBe('');
    await page.getByLabel('Your password, to confirm').fill('another try');
    expect(await fieldError.count()).toBe(0);
    await context.close();
  });

  it('say in our words that the first of two email-change links worked', async () => {
    const { context, page } = await open();
    await page.goto(
      `${api.url}/email-confirmed#message=Confirmation+link+accepted.+Please+proceed+to+confirm+link+sent+to+the+other+email`,
    );
    await heading(page, 'One more step');
    const text = await page.locator('main').innerText();
    expect(text).not.toContain('Confirmation link accepted');
    expect(text).toContain('Now follow the link we sent to your other address.');
    await context.close();
  });
});

describe('the first steps', () => {
  it('let a new member choose their address, show it with a link and a copy button, then open the editor', async () => {
    const { context, page } = await open(PHONE);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.url });
    const taken = await insertMember(api.dataSource, { profile: { username: `dorcas_${Date.now().toString(36)}` } });
    const chosen = `tabitha_${Date.now().toString(36)}`;

    await page.goto(`${api.url}/signup`);
    await heading(page, 'Make your page');
    await page.getByLabel('First name').fill('Tabitha');
    await page.getByLabel('Email address').fill(uniqueEmail('tabitha'));
    await page.getByLabel('Password', { exact: true }).fill('a quiet lamp at morning');
    // Checked as it is typed: taken, it is never shown as the member's address.
    await page.getByLabel('Username').fill(taken.profile.username);
    const usernameError = page.locator('#signup-username-error');
    await usernameError.filter({ hasText: 'Someone already has this username. Please choose another.' }).waitFor();
    expect(await page.locator('#signup-username-hint').innerText()).not.toContain(taken.profile.username);
    await checkScreen(page, 'signup-username-taken');
    await page.getByRole('button', { name: 'Create my page' }).click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('signup-username');

    await page.getByLabel('Username').fill(chosen.toUpperCase());
    await page.getByRole('status').filter({ hasText: 'This username is free.' }).waitFor();
    expect(await page.locator('#signup-username-hint').innerText()).toContain(`/@${chosen}`);
    await page.getByRole('button', { name: 'Create my page' }).click();
    await heading(page, 'Welcome to Lampstand, Tabitha');
    const address = page.getByRole('link', { name: `${new URL(api.url).host}/@${chosen}` });
    expect(await address.getAttribute('href')).toBe(`/@${chosen}`);
    await page.getByRole('button', { name: 'Copy address' }).click();
    await page.getByRole('status').filter({ hasText: 'Address copied.' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${api.url}/@${chosen}`);

    // Seen once, the welcome is done: the settings open the editor, now and after a reload.
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Settings' }).click();
    await heading(page, 'Your page');
    await page.reload();
    await heading(page, 'Your page');
    expect(await page.getByLabel('Username').inputValue()).toBe(chosen);
    await context.close();
  });
});
