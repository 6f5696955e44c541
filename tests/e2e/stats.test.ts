import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LinkClickDayRecord, LinkRecord, PageViewDayRecord } from '../../server/src/links/link.entity.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';
import type { SignedUpMember } from '../support/members.js';
import { signUpMember } from '../support/members.js';
import { checkScreen, heading, logIn, newPage } from '../support/screens.js';

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

// Headless Chromium names itself HeadlessChrome, which counts as a bot; a visitor's browser does not.
const VISITOR_AGENT =
  'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';

/** A member with links added through the API and the welcome screen done. */
async function memberWithLinks(titles: string[], plus = false): Promise<SignedUpMember & { linkIds: string[] }> {
  const member = await signUpMember(api, { first: 'Phoebe' });
  if (plus) await api.app.billing.grant(member.email);
  const token = member.session.accessToken;
  await api.graphql('mutation { completeWelcome { welcome } }', {}, { token });
  const linkIds: string[] = [];
  for (const title of titles) {
    const response = await api.graphql<{ addLink: { id: string } }>(
      'mutation ($input: LinkInput!) { addLink(input: $input) { id } }',
      // Somewhere the browser can follow to: this server's own playground.
      { input: { title, url: `${api.url}/playground?from=${encodeURIComponent(title)}` } },
      { token },
    );
    expect(response.errors).toBeUndefined();
    linkIds.push(response.data?.addLink.id ?? '');
  }
  return { ...member, linkIds };
}

/** A visitor on a phone opens the member's page and follows the link titled `title` through `/l/<id>`. */
async function visitAndClick(member: SignedUpMember, title: string): Promise<void> {
  const visitor = await browser.newContext({ viewport: { width: 390, height: 844 }, userAgent: VISITOR_AGENT });
  const page = await visitor.newPage();
  await page.goto(`${api.url}/@${member.member.profile.username}`);
  await page.getByRole('navigation', { name: 'Links' }).getByRole('link', { name: title }).click();
  await page.waitForURL(`${api.url}/playground?from=${encodeURIComponent(title)}`);
  await visitor.close();
}

async function stat(page: Page, name: 'views' | 'clicks' | 'rate'): Promise<string | null> {
  return page.locator(`[data-stat="${name}"]`).textContent();
}

describe('the Stats screen', () => {
  it('says there are no visits yet, then shows a click through /l/<id> the same day', async () => {
    const member = await memberWithLinks(['Our church']);
    const { context, page } = await newPage(browser);
    await logIn(page, api.url, member.email, member.password);
    await page.goto(`${api.url}/profile`);
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Stats' }).click();
    await heading(page, 'Stats');
    await page.getByText('No visits yet.').waitFor();
    expect(await stat(page, 'views')).toBe('0');
    // Billing is off on this server: no upsell, and no chart without Plus.
    expect(await page.getByRole('link', { name: 'Lampstand Plus' }).count()).toBe(0);
    expect(await page.locator('.stats-chart').count()).toBe(0);
    await checkScreen(page, 'stats-empty');

    // The same visitor comes back and clicks again the same day: still one view and one click.
    await visitAndClick(member, 'Our church');
    await visitAndClick(member, 'Our church');
    await page.reload();
    await heading(page, 'Stats');
    expect(await stat(page, 'views')).toBe('1');
    expect(await stat(page, 'clicks')).toBe('1');
    expect(await stat(page, 'rate')).toBe('100%');
    const days = page.getByRole('table', { name: 'Views and clicks, last 7 days' });
    expect(await days.getByRole('row').count()).toBe(8);
    // Today comes first, with the visit and the click.
    expect(await days.getByRole('row').nth(1).getByRole('cell').allTextContents()).toEqual(['1', '1']);
    expect(await page.getByText('No visits yet.').count()).toBe(0);
    // Each link's clicks are every member's, not only Plus members'.
    expect(
      await page
        .getByRole('table', { name: 'Clicks on each link' })
        .getByRole('row', { name: /Our church/ })
        .getByRole('cell')
        .allTextContents(),
    ).toEqual(['1', '100%']);
    await page.getByText(/Each visitor counts once a day/).waitFor();
    await checkScreen(page, 'stats-free');
    await context.close();
  });

  it("adds a visitor's view and click to the open screen as they happen, without a reload", async () => {
    const member = await memberWithLinks(['Prayer list']);
    const { context, page } = await newPage(browser);
    await logIn(page, api.url, member.email, member.password);
    // The screen's `pageActivity` subscription, sent once the server has accepted the socket.
    const subscribed = page
      .waitForEvent('websocket')
      .then((socket) =>
        socket.waitForEvent('framesent', { predicate: (frame) => String(frame.payload).includes('"PageActivity"') }),
      );
    await page.goto(`${api.url}/stats`);
    await heading(page, 'Stats');
    await page.getByText('No visits yet.').waitFor();
    await subscribed;
    let reloads = 0;
    page.on('framenavigated', () => {
      reloads += 1;
    });

    await visitAndClick(member, 'Prayer list');
    const settled = { timeout: 30_000, interval: 100 };
    await expect.poll(() => stat(page, 'views'), settled).toBe('1');
    await expect.poll(() => stat(page, 'clicks'), settled).toBe('1');
    expect(await stat(page, 'rate')).toBe('100%');
    expect(
      await page
        .getByRole('table', { name: 'Clicks on each link' })
        .getByRole('row', { name: /Prayer list/ })
        .getByRole('cell')
        .allTextContents(),
    ).toEqual(['1', '100%']);
    expect(reloads).toBe(0);
    await context.close();
  });

  it('gives a Plus member 90 days with a chart, its table, and the clicks on each link', async () => {
    const member = await memberWithLinks(['Sermons', 'Podcast'], true);
    const uid = member.member.user.uid;
    const [sermons = '', podcast = ''] = member.linkIds;
    // Counts from earlier weeks, as the server would have kept them.
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
    await api.dataSource
      .getRepository(PageViewDayRecord)
      .insert([10, 30, 60].map((ago) => ({ uid, day: daysAgo(ago), views: ago })));
    await api.dataSource.getRepository(LinkClickDayRecord).insert([
      { linkId: sermons, uid, day: daysAgo(30), clicks: 6 },
      { linkId: podcast, uid, day: daysAgo(60), clicks: 3 },
    ]);
    await visitAndClick(member, 'Podcast');

    const { context, page } = await newPage(browser);
    await logIn(page, api.url, member.email, member.password);
    await page.goto(`${api.url}/stats`);
    await heading(page, 'Stats');
    await page.getByText('over the last 90 days').waitFor();
    expect(await stat(page, 'views')).toBe('101');
    expect(await stat(page, 'clicks')).toBe('10');
    const chart = page.getByRole('img', { name: /^Views and clicks by day/ });
    await chart.waitFor();
    // The chart's numbers are in the table it names, for those who cannot see it.
    const tableId = await chart.getAttribute('aria-describedby');
    expect(await page.locator(`#${tableId ?? 'none'} tbody tr`).count()).toBe(90);
    const perLink = page.getByRole('table', { name: 'Clicks on each link' });
    expect(
      await perLink
        .getByRole('row', { name: /Sermons/ })
        .getByRole('cell')
        .allTextContents(),
    ).toEqual(['6', '60%']);
    expect(
      await perLink
        .getByRole('row', { name: /Podcast/ })
        .getByRole('cell')
        .allTextContents(),
    ).toEqual(['4', '40%']);
    await page.getByText('The numbers by day').click();
    await checkScreen(page, 'stats-plus');
    await context.close();
  });
});

describe('the links editor with Plus', () => {
  it('schedules a link and highlights another, and the page follows', async () => {
    const member = await memberWithLinks(['Advent', 'Sermons'], true);
    const [advent = '', sermons = ''] = member.linkIds;
    const { context, page } = await newPage(browser);
    await logIn(page, api.url, member.email, member.password);
    await page.goto(`${api.url}/profile`);
    const item = (title: string) => page.locator('.link-item').filter({ hasText: title });

    await item('Sermons').getByText('Schedule and highlight').click();
    await item('Sermons').getByLabel('Highlight this link').check();
    await page.getByText('“Sermons” is highlighted on your page.').waitFor();

    // A window that has not begun yet, in the browser's zone (Chicago), which the page takes.
    await item('Advent').getByText('Schedule and highlight').click();
    await item('Advent').getByText('Times are in America/Chicago').waitFor();
    await item('Advent').getByLabel('Show from').fill('2999-12-01T00:00');
    await item('Advent').getByLabel('Show until').fill('2999-12-25T00:00');
    await item('Advent').getByRole('button', { name: 'Save schedule' }).click();
    await page.getByText('“Advent” has a schedule.').waitFor();
    await item('Advent')
      .getByText(/^Shown .* – /)
      .waitFor();
    await checkScreen(page, 'links-editor-plus');

    const stored = await api.dataSource.getRepository(LinkRecord).findBy({ uid: member.member.user.uid });
    expect(
      stored.map(({ id, visibleFrom, visibleUntil, highlighted }) => ({ id, visibleFrom, visibleUntil, highlighted })),
    ).toEqual(
      expect.arrayContaining([
        { id: advent, visibleFrom: '2999-12-01T00:00', visibleUntil: '2999-12-25T00:00', highlighted: false },
        { id: sermons, visibleFrom: null, visibleUntil: null, highlighted: true },
      ]),
    );

    const visitor = await browser.newContext({ viewport: { width: 390, height: 844 }, userAgent: VISITOR_AGENT });
    const visit = await visitor.newPage();
    await visit.goto(`${api.url}/@${member.member.profile.username}`);
    const buttons = visit.getByRole('navigation', { name: 'Links' }).getByRole('listitem');
    await buttons.first().waitFor();
    expect(await buttons.locator('.plink-title').allTextContents()).toEqual(['Sermons']);
    expect(await buttons.first().getAttribute('class')).toContain('plink-highlighted');
    await checkScreen(visit, 'links-highlighted-on-page');
    await visitor.close();
    await context.close();
  });
});
