import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { verseCalendar } from '../../server/src/verses/calendar.js';
import { todayIn } from '../../server/src/verses/day.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';
import { signUpMember } from '../support/members.js';
import { logIn, openHome, screenshots, seriousA11yViolations } from '../support/screens.js';

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

const TIME_ZONE = 'Pacific/Kiritimati';

async function newPage() {
  const context = await browser.newContext({
    timezoneId: TIME_ZONE,
    locale: 'en-US',
    viewport: { width: 1280, height: 900 },
  });
  return { context, page: await context.newPage() };
}

describe("the day's verse in the browser", () => {
  it('is the same on the landing page and on a new member’s page on the sign-up day, in either translation', async () => {
    const { member } = await signUpMember(api);
    const { context, page } = await newPage();
    const before = todayIn(TIME_ZONE).monthDay;
    await openHome(page, api.url);
    const landingVerse = page.locator('.today .verse-card');
    await landingVerse.locator('.verse-ref').waitFor();
    const landing = {
      ref: await landingVerse.locator('.verse-ref').innerText(),
      text: await landingVerse.locator('.verse-text').innerText(),
    };

    await page.goto(`${api.url}/@${member.profile.username}`);
    const pageVerse = page.locator('.profile-verse .verse-card');
    expect(await page.locator('.profile-verse-title').innerText()).toMatch(/today’s verse/i);
    // The server draws the page for today in UTC; the visitor's own day, a day ahead here for most
    // of the day, takes its place.
    await expect.poll(() => pageVerse.locator('.verse-ref').innerText()).toBe(landing.ref);
    expect(await pageVerse.locator('.verse-text').innerText()).toBe(landing.text);
    const after = todayIn(TIME_ZONE).monthDay;
    expect([verseCalendar[before], verseCalendar[after]]).not.toContain('Heb.3.4');
    expect(landing.ref).not.toContain('Hebrews 3:4');

    // The visitor switches to the World English Bible; the choice holds on the landing page too.
    await page.getByRole('button', { name: 'WEB' }).click();
    await expect.poll(() => pageVerse.locator('.verse-ref').innerText()).toContain('WEB');
    expect(await page.getByRole('button', { name: 'WEB' }).getAttribute('aria-pressed')).toBe('true');
    const webText = await pageVerse.locator('.verse-text').innerText();
    expect(webText).not.toBe(landing.text);
    await page.goto(api.url);
    await expect.poll(() => landingVerse.locator('.verse-ref').innerText()).toContain('WEB');
    expect(await landingVerse.locator('.verse-text').innerText()).toBe(webText);
    await context.close();
  });
});

describe('past days', () => {
  it('are browsed month by month in a calendar whose days open their verse pages', async () => {
    const { context, page } = await newPage();
    await page.goto(`${api.url}/verse?month=2024-02`);
    await page.getByRole('table').getByText('February 2024').waitFor();
    await page.getByRole('link', { name: /January 2024/ }).click();
    await page.getByRole('table').getByText('January 2024').waitFor();
    await page.getByRole('link', { name: /February 2024/ }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('table').getByText('February 2024').waitFor();
    await page.getByRole('link', { name: /29 February 2024/ }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${api.url}/verse/2024-02-29`);
    expect(await page.locator('blockquote').innerText()).toBe(
      'This is the day which the LORD hath made; we will rejoice and be glad in it.',
    );
    await context.close();
  });

  it("a past day's page has the site's header and shares its own address", async () => {
    const { context, page } = await newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.url });
    await page.goto(`${api.url}/verse/2024-02-29`);
    const home = page.getByRole('link', { name: 'Lampstand home' });
    expect(await home.getAttribute('href')).toBe('/');
    expect(await home.locator('svg').count()).toBe(1);
    await page.getByRole('link', { name: 'Share this day' }).click();
    // Headless Chromium on Linux has no share sheet: the link is copied, and the page says so.
    await expect.poll(() => page.getByRole('status').innerText()).toBe('Link copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${api.url}/verse/2024-02-29`);
    expect(page.url()).toBe(`${api.url}/verse/2024-02-29`);
    await context.close();
  });

  it('a past day\'s "Save this verse" leads a visitor signed out to sign up, saying why', async () => {
    const { context, page } = await newPage();
    await page.goto(`${api.url}/verse/2024-02-29`);
    await page.getByRole('link', { name: 'Save this verse' }).click();
    await page.getByRole('heading', { level: 1, name: 'Make your page' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/signup');
    await page.getByText('Saved verses are kept with your page').waitFor();
    await context.close();
  });
});

describe('saved verses', () => {
  it('are saved from a reference, listed and removed by a signed-in member', async () => {
    const { email, password, session } = await signUpMember(api, { first: 'Hannah' });
    await api.graphql('mutation { completeWelcome { welcome } }', {}, { token: session.accessToken });
    const { context, page } = await newPage();
    await logIn(page, api.url, email, password);

    await page.goto(`${api.url}/saved?ref=${encodeURIComponent('1 Samuel 1:27')}`);
    expect(await page.getByLabel('Verse', { exact: true }).inputValue()).toBe('1 Samuel 1:27');
    await page.getByRole('button', { name: 'Save verse' }).click();
    await page.getByText('Saved 1 Samuel 1:27.').waitFor();
    const list = page.locator('.saved-list');
    await expect.poll(() => list.locator('.verse-ref').allInnerTexts()).toEqual(['1 Samuel 1:27 KJV']);

    await page.getByLabel('Verse', { exact: true }).fill('Hezekiah 3:1');
    await page.getByRole('button', { name: 'Save verse' }).click();
    await page
      .locator('.field-error')
      .getByText(/no verse "Hezekiah 3:1"/)
      .waitFor();

    // The morning mail's hour is an hour of the member's own day, and the list says so.
    const hours = page.getByLabel(`Hour it arrives, in your time zone (${TIME_ZONE})`);
    expect((await hours.locator('option').allInnerTexts()).slice(6, 8)).toEqual([
      '06:00 local time',
      '07:00 local time',
    ]);

    await page.getByRole('button', { name: 'Remove 1 Samuel 1:27' }).click();
    await page.getByText('No saved verses yet.').waitFor();
    await context.close();
  });
});

/**
 * What the screen at this width gets wrong for a reader: serious axe findings, content wider than
 * the window, controls smaller than a 24 px target (WCAG 2.5.8), and not exactly one `<h1>`.
 */
async function problemsAt(page: Page, width: number): Promise<string[]> {
  await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
  const problems = (await seriousA11yViolations(page)).map((found) => `${width}px ${found}`);
  const layout = await page.evaluate(() => {
    const small = [...document.querySelectorAll<HTMLElement>('main button, main input, main select, main a.button')]
      .filter((element) => element.offsetParent !== null)
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width < 24 || box.height < 24)
      .map(({ element, box }) => `${element.outerHTML.slice(0, 60)} is ${box.width}×${box.height}`);
    return {
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      small,
      h1: document.querySelectorAll('h1').length,
    };
  });
  if (layout.overflow > 0) problems.push(`${width}px: the page is ${layout.overflow}px wider than the window`);
  problems.push(...layout.small.map((found) => `${width}px: ${found}`));
  if (layout.h1 !== 1) problems.push(`${width}px: ${layout.h1} h1 headings`);
  return problems;
}

describe('the verse screens at a phone’s and a laptop’s width', () => {
  it('/verse, a past day and /saved fit, have targets big enough and pass axe at 390 and 1280 px', async () => {
    const { email, password, session } = await signUpMember(api, { first: 'Eunice' });
    const token = session.accessToken;
    await api.graphql('mutation { completeWelcome { welcome } }', {}, { token });
    for (const ref of ['Psalm 119:105', '2 Timothy 1:5']) {
      const saved = await api.graphql(
        'mutation ($ref: String!) { saveVerse(ref: $ref) { savedAt } }',
        { ref },
        { token },
      );
      expect(saved.errors).toBeUndefined();
    }
    const { context, page } = await newPage();
    await logIn(page, api.url, email, password);

    const problems: string[] = [];
    await page.goto(`${api.url}/verse?month=2024-02`);
    await page.getByRole('table').getByText('February 2024').waitFor();
    for (const width of [390, 1280]) problems.push(...(await problemsAt(page, width)));
    await screenshots(page, 'verse-calendar');

    await page.goto(`${api.url}/verse/2024-02-29`);
    await page.locator('blockquote').waitFor();
    for (const width of [390, 1280]) problems.push(...(await problemsAt(page, width)));
    await screenshots(page, 'verse-day');

    await page.goto(`${api.url}/saved`);
    await expect.poll(() => page.locator('.saved-list .verse-ref').count()).toBe(2);
    for (const width of [390, 1280]) problems.push(...(await problemsAt(page, width)));
    await screenshots(page, 'saved-verses');
    expect(problems).toEqual([]);
    await context.close();
  });
});
