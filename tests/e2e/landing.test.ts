import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readKjv } from '../../server/src/db/verse-texts/kjv.js';
import { verseCalendar } from '../../server/src/verses/calendar.js';
import { todayIn } from '../../server/src/verses/day.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';
import { totalLayoutShift, watchLayoutShifts } from '../support/layout-shifts.js';
import { signUpMember } from '../support/members.js';
import { appOwnsHome, heading, logIn, openHome, screenshots, seriousA11yViolations } from '../support/screens.js';

const kjv = new Map(readKjv().map((verse) => [verse.id, verse]));
let api: TestApp | undefined;
let browser: TestBrowser | undefined;

beforeAll(async () => {
  api = await startTestApp({ WEB_DIST_DIR: inject('webDistDir') });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

function started(): { api: TestApp; browser: TestBrowser } {
  if (!api || !browser) throw new Error('setup failed');
  return { api, browser };
}

/** The KJV verses of the day in `timeZone` between two moments (a day may turn between them). */
function versesOfTheDay(timeZone: string, days: string[]) {
  return days.map((day) => kjv.get(verseCalendar[todayIn(timeZone, new Date(day)).monthDay] ?? ''));
}

/** Every console error and uncaught exception of the page, React's hydration warnings among them. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** The app's own code (React, the router and GraphQL client, its boot) that `page` has asked for. */
function appScripts(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (/^\/assets\/(react|vendor|boot|LandingPage)-[\w-]+\.js$/.test(pathname)) asked.push(pathname);
  });
  return asked;
}

/** Marks the document, so that a test can tell a navigation inside the app from a new page load. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { samePage: boolean }).samePage = true;
  });
}

async function sameDocument(page: Page): Promise<boolean | undefined> {
  return page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage);
}

/**
 * Records the page's layout shifts, and keeps the heading the server sent, so that the test can tell
 * whether the app kept the server's elements or drew its own.
 */
async function watchPage(context: BrowserContext): Promise<void> {
  await watchLayoutShifts(context);
  await context.addInitScript(() => {
    const watched = window as unknown as { serverHeading: Element | null };
    document.addEventListener('readystatechange', () => {
      if (document.readyState === 'interactive') watched.serverHeading = document.getElementById('landing-title');
    });
  });
}

describe('the landing page', () => {
  it("shows today's verse in the visitor's time zone", async () => {
    const { api, browser } = started();
    const timeZone = 'Pacific/Kiritimati';
    const context = await browser.newContext({ timezoneId: timeZone, locale: 'en-US' });
    const page = await context.newPage();
    const before = new Date().toISOString();
    // The server renders today in UTC; the app then shows the visitor's day, which may be another.
    await openHome(page, api.url);
    const after = new Date().toISOString();
    const shown = (await page.locator('.verse-text').innerText()).trim();
    const reference = (await page.locator('.verse-ref').innerText()).trim();
    const expected = versesOfTheDay(timeZone, [before, after]).find((verse) => verse?.text === shown);
    expect(expected, `shown: ${shown}`).toBeDefined();
    expect(reference).toContain(expected?.ref);
    expect(await page.title()).toBe('Lampstand');
    await context.close();
  });

  it('is readable with JavaScript off: the header, the heading, today’s verse and the way to sign up', async () => {
    const { api, browser } = started();
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const before = new Date().toISOString();
    await page.goto(api.url);
    const after = new Date().toISOString();
    await heading(page, 'A verse for today, on a page of your own.');
    const shown = (await page.locator('.verse-text').innerText()).trim();
    const expected = versesOfTheDay('UTC', [before, after]).find((verse) => verse?.text === shown);
    expect(expected, `shown: ${shown}`).toBeDefined();
    expect(await page.locator('.verse-ref').innerText()).toContain(expected?.ref);
    expect(await page.getByRole('link', { name: 'Make your page' }).getAttribute('href')).toBe('/signup');
    expect(await page.getByRole('navigation', { name: 'Account' }).getByRole('link').allInnerTexts()).toEqual([
      'Log in',
      'Sign up',
    ]);
    expect(await page.getByRole('group', { name: 'Translation' }).getByRole('button').allInnerTexts()).toEqual([
      'KJV',
      'WEB',
    ]);
    expect(await page.locator('.site-footer').innerText()).toContain('King James Version');
    expect(await page.locator('.site-footer').innerText()).toContain('World English Bible');
    await context.close();
  });

  it('has one main action, a sample page marked as such, and the API in a section for developers', async () => {
    const { api, browser } = started();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await openHome(page, api.url);
    const main = page.locator('main');
    expect(await main.locator('.button--primary').allInnerTexts()).toEqual(['Make your page']);
    expect(await page.locator('.landing-actions').getByRole('link').allInnerTexts()).toEqual(['Make your page']);
    const sample = page.getByRole('region', { name: 'What your page looks like' });
    expect(await sample.getByText('Sample page', { exact: true }).count()).toBe(1);
    expect(await sample.locator('.sample-verse p').innerText()).toBe(await page.locator('.verse-text').innerText());
    const developers = page.getByRole('region', { name: 'For developers' });
    expect(await developers.getByRole('link', { name: 'Explore the API' }).getAttribute('href')).toBe('/playground');
    expect(
      await page
        .locator('.site-footer')
        .getByRole('link', { name: /GraphQL API/ })
        .count(),
    ).toBe(1);
    // The verse card is as tall as its verse, with no empty band under a short one.
    const card = await page.locator('.today .verse-card').boundingBox();
    const text = await page.locator('.today .verse-card .verse-ref').boundingBox();
    expect((card?.y ?? 0) + (card?.height ?? 0) - ((text?.y ?? 0) + (text?.height ?? 0))).toBeLessThan(60);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, 'landing');
    await context.close();
  });

  it('leads a visitor signed out who wants to save the verse to sign up, and says why', async () => {
    const { api, browser } = started();
    const context = await browser.newContext();
    const page = await context.newPage();
    const scripts = appScripts(page);
    await openHome(page, api.url);
    // The page is read with none of the app's code; a link clicked now waits for the app, which follows it.
    expect(scripts).toEqual([]);
    await markDocument(page);
    await page.getByRole('link', { name: 'Sign up to save this verse' }).click();
    await heading(page, 'Make your page');
    expect(await page.locator('.flash').innerText()).toContain('Saved verses are kept with your page');
    expect(await sameDocument(page)).toBe(true);
    await context.close();
  });

  it("follows a link clicked before the app arrives as a plain link when the app's code cannot be had", async () => {
    const { api, browser } = started();
    const context = await browser.newContext();
    const page = await context.newPage();
    // The app's boot fails to load on the home page only (a deploy removed it, a network failed).
    await page.route(/\/assets\/boot-[\w-]+\.js$/, (route) =>
      new URL(route.request().frame().url()).pathname === '/' ? route.abort() : route.continue(),
    );
    await openHome(page, api.url);
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Log in' }).click();
    await heading(page, 'Log in');
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it('switches the translation in place before the app arrives, and keeps the choice once it has', async () => {
    const { api, browser } = started();
    const context = await browser.newContext({ timezoneId: 'UTC' });
    const page = await context.newPage();
    const errors = collectErrors(page);
    const scripts = appScripts(page);
    await openHome(page, api.url);
    const kjvText = await page.locator('.today .verse-text').innerText();
    // Keys and pointers bring the app: a click by script is the islands' alone.
    await page.getByRole('button', { name: 'WEB' }).evaluate((button: HTMLElement) => {
      button.click();
    });
    await expect.poll(() => page.locator('.today .verse-ref').innerText()).toMatch(/ WEB$/);
    expect(await page.locator('.today .verse-text').innerText()).not.toBe(kjvText);
    expect(await page.locator('.sample-verse p').innerText()).toBe(
      await page.locator('.today .verse-text').innerText(),
    );
    expect(await page.getByRole('button', { name: 'WEB' }).getAttribute('aria-pressed')).toBe('true');
    expect(scripts).toEqual([]);

    const webText = await page.locator('.today .verse-text').innerText();
    await page.getByRole('heading', { level: 1 }).hover();
    await appOwnsHome(page);
    expect(await page.locator('.today .verse-text').innerText()).toBe(webText);
    await page.getByRole('button', { name: 'KJV' }).click();
    await expect.poll(() => page.locator('.today .verse-ref').innerText()).toMatch(/ KJV$/);
    expect(await page.locator('.today .verse-text').innerText()).toBe(kjvText);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('is read with none of the app, which takes it over as the server sent it at the first use: no errors, nothing moves, and its links stay in the app', async () => {
    const { api, browser } = started();
    // The server's day is UTC's: in UTC the verse stays the same once the app asks for the visitor's day.
    const context = await browser.newContext({ timezoneId: 'UTC', viewport: { width: 390, height: 844 } });
    await watchPage(context);
    const page = await context.newPage();
    const errors = collectErrors(page);
    const scripts = appScripts(page);
    await openHome(page, api.url);
    expect(scripts).toEqual([]);
    // The visitor's first use of the page brings the app, which takes the page over.
    await page.getByRole('heading', { level: 1 }).hover();
    await appOwnsHome(page);
    const shift = await totalLayoutShift(page);
    expect(errors).toEqual([]);
    expect(shift).toBeLessThan(0.001);
    // The app kept the server's elements rather than drawing its own in their place.
    expect(
      await page.evaluate(() => {
        const { serverHeading } = window as unknown as { serverHeading: Element | null };
        return serverHeading !== null && serverHeading === document.getElementById('landing-title');
      }),
    ).toBe(true);

    await markDocument(page);
    await page.getByRole('link', { name: 'Make your page' }).click();
    await heading(page, 'Make your page');
    expect(new URL(page.url()).pathname).toBe('/signup');
    // Navigated by the app: the document is the same one, and the new page's heading has the focus.
    expect(await sameDocument(page)).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Make your page');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a member signed in on this browser their own links', async () => {
    const { api, browser } = started();
    const { email, password, member } = await signUpMember(api);
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = collectErrors(page);
    await logIn(page, api.url, email, password);
    await openHome(page, api.url);
    const { username } = member.profile;
    expect(await page.getByRole('link', { name: 'See your page' }).getAttribute('href')).toBe(`/@${username}`);
    const account = page.getByRole('navigation', { name: 'Account' });
    expect(await account.getByRole('link').allInnerTexts()).toEqual(['My page', 'Settings']);
    await account.getByRole('button', { name: 'Log out' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("saves today's verse in one tap for a member signed in, and takes it back with Undo", async () => {
    const { api, browser } = started();
    const { email, password, session } = await signUpMember(api);
    const context = await browser.newContext({ timezoneId: 'UTC' });
    const page = await context.newPage();
    await logIn(page, api.url, email, password);
    await openHome(page, api.url);
    const ref = (await page.locator('.today .verse-ref').innerText()).replace(/\s*(KJV|WEB)$/, '').trim();
    const savedRefs = async () => {
      const answer = await api.graphql<{ savedVerses: { verse: { ref: string } }[] }>(
        '{ savedVerses { verse { ref } } }',
        {},
        { token: session.accessToken },
      );
      return answer.data?.savedVerses.map(({ verse }) => verse.ref);
    };
    await page.getByRole('button', { name: 'Save this verse' }).click();
    await page.getByText('Saved to your verses.').waitFor();
    expect(await savedRefs()).toEqual([ref]);
    await page.getByRole('button', { name: `Undo saving ${ref}` }).click();
    await page.getByText(`${ref} is no longer saved.`).waitFor();
    expect(await savedRefs()).toEqual([]);
    await screenshots(page, 'landing-member');
    await context.close();
  });
});
