import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ButtonStyle, Layout, Theme } from '../../server/src/profiles/appearance.js';
import { LinkRecord } from '../../server/src/links/link.entity.js';
import { ProfileRecord } from '../../server/src/profiles/profile.entity.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';
import { insertMember } from '../support/factories.js';
import { totalLayoutShift, watchLayoutShifts } from '../support/layout-shifts.js';
import { signUpMember } from '../support/members.js';
import { logIn, screenshots, seriousA11yViolations } from '../support/screens.js';

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

type Look = Pick<ProfileRecord, 'theme' | 'layout' | 'button'>;

async function member(look: Partial<Look>, options: { plus?: boolean; name?: string } = {}) {
  return insertMember(api.dataSource, {
    user: { stripeRole: options.plus ? 'plus' : null },
    profile: { name: options.name ?? 'Priscilla', ...look },
  });
}

async function openProfile(username: string, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport, timezoneId: 'America/Chicago', locale: 'en-US' });
  const page = await context.newPage();
  const response = await page.goto(`${api.url}/@${username}`);
  return { context, page, status: response?.status() };
}

/** What a visitor sees of the page's look, read from the rendered styles. */
async function looks(page: Page) {
  await page.getByRole('heading', { level: 1 }).waitFor();
  return page.evaluate(() => {
    const style = (selector: string) => {
      const element = document.querySelector(selector);
      if (!element) throw new Error(`no ${selector}`);
      return getComputedStyle(element);
    };
    const page = style('.profile');
    const button = style('.share button');
    const identity = document.querySelector('.profile-identity')?.getBoundingClientRect();
    const verse = document.querySelector('.profile-verse')?.getBoundingClientRect();
    return {
      background: page.backgroundImage === 'none' ? page.backgroundColor : page.backgroundImage,
      text: page.color,
      buttonRadius: button.borderTopLeftRadius,
      buttonBackground: button.backgroundImage === 'none' ? button.backgroundColor : button.backgroundImage,
      nameBesideVerse: identity && verse ? identity.right <= verse.left : false,
      nameCentred: document.querySelector('h1')
        ? getComputedStyle(document.querySelector('h1') as Element).textAlign
        : '',
    };
  });
}

describe('a public profile', () => {
  it("shows a free member's name, today's verse and chosen look, without a Plus badge", async () => {
    const { profile } = await member(
      { theme: Theme.darkTheme, layout: Layout.column, button: ButtonStyle.outlineButton },
      {
        name: 'Priscilla',
      },
    );
    const { context, page, status } = await openProfile(profile.username);
    expect(status).toBe(200);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Priscilla');
    await expect.poll(() => page.locator('.verse-text').count()).toBe(1);
    expect((await page.locator('.verse-text').innerText()).length).toBeGreaterThan(10);
    expect(await page.getByText(`@${profile.username}`).isVisible()).toBe(true);
    expect(await page.getByText('Plus member').count()).toBe(0);
    const look = await looks(page);
    expect(look.background).toBe('rgb(16, 20, 28)');
    expect(look.text).toBe('rgb(238, 234, 227)');
    expect(look.nameBesideVerse).toBe(false);
    expect(look.nameCentred).toBe('center');
    expect(look.buttonBackground).toBe('rgba(0, 0, 0, 0)');
    expect(await page.title()).toBe(`Priscilla (@${profile.username}) · Lampstand`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, 'profile-dark-column-outline');
    await context.close();
  });

  it("shows a Plus member's Plus theme, gold buttons and Plus badge", async () => {
    const { profile } = await member(
      { theme: Theme.sunriseTheme, layout: Layout.row, button: ButtonStyle.goldButton },
      {
        plus: true,
        name: 'Aquila',
      },
    );
    const { context, page } = await openProfile(profile.username);
    await page.getByRole('heading', { name: 'Aquila' }).waitFor();
    expect(await page.getByText('Plus member').isVisible()).toBe(true);
    const look = await looks(page);
    expect(look.background).toContain('linear-gradient');
    expect(look.buttonBackground).toContain('linear-gradient');
    expect(look.nameBesideVerse).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, 'profile-sunrise-row-gold');
    await context.close();
  });

  it('looks different in each theme and button style', async () => {
    const combos: Look[] = [
      { theme: Theme.lightTheme, layout: Layout.row, button: ButtonStyle.normalButton },
      { theme: Theme.darkTheme, layout: Layout.row, button: ButtonStyle.roundedButton },
      { theme: Theme.sunriseTheme, layout: Layout.column, button: ButtonStyle.outlineButton },
      { theme: Theme.gardenTheme, layout: Layout.column, button: ButtonStyle.goldButton },
    ];
    const seen = [];
    for (const combo of combos) {
      const { profile } = await member(combo, { plus: true, name: 'Lois' });
      const { context, page } = await openProfile(profile.username, { width: 390, height: 844 });
      seen.push(await looks(page));
      expect(await seriousA11yViolations(page), combo.theme).toEqual([]);
      await screenshots(page, `profile-${combo.theme}-${combo.layout}-${combo.button}`);
      await context.close();
    }
    expect(new Set(seen.map((look) => look.background)).size).toBe(4);
    expect(new Set(seen.map((look) => `${look.buttonRadius} ${look.buttonBackground}`)).size).toBe(4);
  });

  it('shows the not-found page, with HTTP 404, for a private profile', async () => {
    const { profile } = await insertMember(api.dataSource, { profile: { name: 'Secret Sam', isPublic: false } });
    const { context, page, status } = await openProfile(profile.username);
    expect(status).toBe(404);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.getByText('Secret Sam').count()).toBe(0);
    expect(await page.title()).toBe('Page not found · Lampstand');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, 'profile-not-found');
    await context.close();
  });

  it('reads, and follows its links, with JavaScript off', async () => {
    const { profile, user } = await member({ theme: Theme.gardenTheme }, { name: 'Dorcas' });
    await api.dataSource.getRepository(ProfileRecord).update({ uid: profile.uid }, { bio: 'Full of good works.' });
    const linkId = crypto.randomUUID();
    await api.dataSource.getRepository(LinkRecord).insert({
      id: linkId,
      uid: user.uid,
      title: 'Our church',
      url: `${api.url}/playground?from=page`,
      position: 0,
      hidden: false,
      createdAt: new Date(),
    });
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const response = await page.goto(`${api.url}/@${profile.username}`);
    expect(response?.status()).toBe(200);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Dorcas');
    expect(await page.getByText('Full of good works.').isVisible()).toBe(true);
    expect((await page.locator('.verse-text').innerText()).length).toBeGreaterThan(10);
    expect(await page.locator('.verse-ref').innerText()).toMatch(/\d+:\d+ KJV$/);
    expect((await looks(page)).background).not.toBe('rgb(255, 255, 255)');
    await screenshots(page, 'profile-without-javascript');
    const link = page.getByRole('navigation', { name: 'Links' }).getByRole('link', { name: /Our church/ });
    expect(await link.getAttribute('href')).toBe(`/l/${linkId}`);
    await link.click();
    await page.waitForURL(`${api.url}/playground?from=page`);
    await context.close();
  });

  it('offers its owner a way to edit it, and tells them when it is private instead of a plain 404', async () => {
    const { email, password, session, member: signedUp } = await signUpMember(api, { first: 'Olive' });
    const username = signedUp.profile.username;
    // Past the welcome screen, which member screens otherwise show first.
    const welcomed = await api.graphql('mutation { completeWelcome { welcome } }', {}, { token: session.accessToken });
    expect(welcomed.errors).toBeUndefined();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await logIn(page, api.url, email, password);

    await page.goto(`${api.url}/@${username}`);
    await page.getByRole('link', { name: 'Edit page' }).click();
    await page.waitForURL(`${api.url}/profile`);
    await page.getByRole('heading', { name: 'Your page' }).waitFor();

    const hidden = await api.graphql(
      'mutation { updateProfile(input: { isPublic: false }) { isPublic } }',
      {},
      { token: session.accessToken },
    );
    expect(hidden.errors).toBeUndefined();
    const response = await page.goto(`${api.url}/@${username}`);
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Your page is private' }).waitFor();
    expect(await page.getByRole('link', { name: 'Open your page settings' }).getAttribute('href')).toBe('/profile');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, 'profile-own-private');
    await context.close();
  });

  it("loads no React on a visitor's first visit, and the form's code only for a report", async () => {
    const { profile } = await member({}, { name: 'Phoebe of Cenchreae' });
    const { context, page } = await openProfile(profile.username);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Phoebe of Cenchreae' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((script) => /react|vendor|boot|apollo|ProfileView/i.test(script))).toEqual([]);

    // Reporting needs React and the GraphQL client: they come with the form, and the report goes through.
    await page.getByRole('button', { name: 'Report this page' }).click();
    await page.getByLabel('Why are you reporting it?').selectOption('spam');
    await page.getByRole('button', { name: 'Send report' }).click();
    await page.getByText('Your report was sent to the Lampstand team').waitFor();
    expect(scripts.some((script) => /apollo|vendor/i.test(script))).toBe(true);
    await context.close();
  });

  it("shows the verse in the visitor's own translation in place, and switches it, without moving the page", async () => {
    const { profile } = await member({});
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addInitScript(() => {
      localStorage.setItem('lampstand.translation', 'WEB');
    });
    const page = await context.newPage();
    await watchLayoutShifts(page);
    await page.goto(`${api.url}/@${profile.username}`);
    await expect.poll(() => page.locator('.verse-ref .translation').textContent()).toBe('WEB');
    expect(await page.getByRole('button', { name: 'WEB' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'KJV' }).click();
    await expect.poll(() => page.locator('.verse-ref .translation').textContent()).toBe('KJV');
    expect(await page.getByRole('button', { name: 'KJV' }).getAttribute('aria-pressed')).toBe('true');
    expect(await page.evaluate(() => localStorage.getItem('lampstand.translation'))).toBe('KJV');
    expect(await totalLayoutShift(page)).toBeLessThan(0.02);
    await context.close();
  });

  it("shows the verse of the visitor's own day from the first frame, where that day is not UTC's", async () => {
    const { profile } = await member({});
    // A zone whose day differs from UTC's now: twelve hours behind before noon, fourteen ahead after.
    const timezoneId = new Date().getUTCHours() < 12 ? 'Etc/GMT+12' : 'Pacific/Kiritimati';
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, timezoneId });
    // The verse as each frame is about to be drawn, until the page has one.
    await context.addInitScript(() => {
      const look = () => {
        const text = document.querySelector('.profile-verse .verse-text p')?.textContent;
        if (text) Object.assign(window, { firstVerse: text });
        else requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    });
    const page = await context.newPage();
    await watchLayoutShifts(page);
    const verseRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('ProfileVerse')) verseRequests.push(request.url());
    });
    // The server renders a page once its rendering code has loaded (the first request loads it, and
    // a slow first rendering sends the page without): this test is about the rendered one.
    const address = `${api.url}/@${profile.username}`;
    await expect.poll(async () => (await fetch(address)).text(), { timeout: 60_000 }).toContain('verse-text');
    const response = await page.goto(address);
    expect(await response?.text()).toContain('verse-text');
    await page.waitForLoadState('networkidle');
    const day = await page.evaluate(() => {
      const now = new Date();
      const two = (value: number) => String(value).padStart(2, '0');
      return `${String(now.getFullYear())}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
    });
    const utcDay = new Date().toISOString().slice(0, 10);
    expect(day).not.toBe(utcDay);
    const answer = await api.graphql<{ profile: { verse: { text: string } } }>(
      'query ($username: String!, $date: String) { profile(username: $username) { verse(date: $date) { text } } }',
      { username: profile.username, date: day },
    );
    const expected = answer.data?.profile.verse.text;
    expect(expected).toBeTruthy();
    expect(await page.evaluate(() => (window as unknown as { firstVerse?: string }).firstVerse)).toBe(expected);
    expect(await page.locator('.profile-verse .verse-text p').textContent()).toBe(expected);
    // Nothing was fetched to change it, so nothing changes after the page appears.
    expect(verseRequests).toEqual([]);
    expect(await totalLayoutShift(page)).toBeLessThan(0.02);
    await context.close();
  });

  it('copies its link, and says so, where the browser has no share sheet', async () => {
    const { profile } = await member({ button: ButtonStyle.roundedButton });
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'share', { value: undefined, configurable: true });
    });
    const page = await context.newPage();
    await page.goto(`${api.url}/@${profile.username}`);
    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByRole('status').filter({ hasText: 'Link copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${api.url}/@${profile.username}`);
    await context.close();
  });

  it("opens the browser's share sheet where there is one", async () => {
    const { profile } = await member({});
    const context = await browser.newContext();
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'share', {
        configurable: true,
        value: (data: ShareData) => {
          Object.assign(window, { shared: data });
          return Promise.resolve();
        },
      });
    });
    const page = await context.newPage();
    await page.goto(`${api.url}/@${profile.username}`);
    await page.getByRole('button', { name: 'Share' }).click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { shared?: ShareData }).shared?.url))
      .toBe(`${api.url}/@${profile.username}`);
    await context.close();
  });
});
