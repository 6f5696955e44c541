import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LinkClickDayRecord, LinkRecord } from '../../server/src/links/link.entity.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';
import { signUpMember } from '../support/members.js';
import { checkScreen, logIn, screenshots, seriousA11yViolations } from '../support/screens.js';

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

describe("a member's links", () => {
  it('are added with a bio, reordered by keyboard, removed, and shown and followed on the page', async () => {
    const { email, password, session, member } = await signUpMember(api, { first: 'Lydia' });
    const welcomed = await api.graphql('mutation { completeWelcome { welcome } }', {}, { token: session.accessToken });
    expect(welcomed.errors).toBeUndefined();
    const username = member.profile.username;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await logIn(page, api.url, email, password);
    await page.goto(`${api.url}/profile`);
    await page.getByRole('heading', { name: 'Links' }).waitFor();

    await page.getByLabel('Bio').fill('Seller of purple, from Thyatira.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Your page is saved.').waitFor();

    const links = page.getByRole('list', { name: 'Your links' });
    const add = async (title: string, url: string) => {
      await page.locator('#new-link-title').fill(title);
      await page.locator('#new-link-url').fill(url);
      await page.getByRole('button', { name: 'Add link' }).click();
      await links.getByText(title, { exact: true }).waitFor();
    };
    await add('Sermons', 'youtube.com/@thyatira');
    // Somewhere the test can follow to: this server's own playground.
    await add('Our church', `${api.url}/playground?from=page`);
    await add('Write to me', 'mailto:lydia@example.com');

    // A javascript: address is refused on its field, and nothing is added.
    await page.locator('#new-link-title').fill('Trick');
    await page.locator('#new-link-url').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Add link' }).click();
    await page.locator('#new-link-url-error').waitFor();
    expect(await links.getByRole('listitem').count()).toBe(3);

    // Keyboard only: focus "Move 'Write to me' up" and press Enter twice; focus stays on it.
    await page.getByRole('button', { name: 'Move “Write to me” up' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Moved “Write to me” to place 2 of 3.').waitFor();
    await page.keyboard.press('Enter');
    await page.getByText('Moved “Write to me” to place 1 of 3.').waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Move “Write to me” up');
    const order = async () =>
      links.locator('.link-item-title').evaluateAll((items) => items.map((item) => item.textContent));
    expect(await order()).toEqual(['Write to me', 'Sermons', 'Our church']);

    // With a pointer: drag "Our church" by its handle above the first link.
    const handle = (title: string) =>
      links.locator('.link-item').filter({ hasText: title }).locator('.link-item-handle');
    const from = await handle('Our church').boundingBox();
    const to = await links.locator('.link-item').first().boundingBox();
    if (!from || !to) throw new Error('The links are not on screen');
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, to.y + 4, { steps: 12 });
    await page.mouse.up();
    await page.getByText('Moved “Our church” to place 1 of 3.').waitFor();
    expect(await order()).toEqual(['Our church', 'Write to me', 'Sermons']);
    await expect
      .poll(async () =>
        (
          await api.dataSource
            .getRepository(LinkRecord)
            .find({ where: { uid: member.user.uid }, order: { position: 'ASC' } })
        ).map((link) => link.title),
      )
      .toEqual(['Our church', 'Write to me', 'Sermons']);

    // Remove asks first; keeping the link changes nothing and gives the focus back.
    await page.getByRole('button', { name: 'Remove “Sermons”' }).click();
    const question = page.getByRole('group', { name: /Remove “Sermons” for good\?/ });
    await question.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Keep it');
    await question.getByRole('button', { name: 'Keep it' }).click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Remove “Sermons”');
    expect(await order()).toEqual(['Our church', 'Write to me', 'Sermons']);
    await page.getByRole('button', { name: 'Remove “Sermons”' }).click();
    await checkScreen(page, 'links-editor-remove-question');
    await page.getByRole('button', { name: 'Remove link' }).click();
    await page.getByText('Removed “Sermons”.').waitFor();
    expect(await order()).toEqual(['Our church', 'Write to me']);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, 'links-editor');

    const stored = await api.dataSource.getRepository(LinkRecord).find({
      where: { uid: member.user.uid },
      order: { position: 'ASC' },
    });
    expect(stored.map((link) => link.title)).toEqual(['Our church', 'Write to me']);

    // The page, as a visitor on a phone sees it.
    // A visitor's own browser: headless Chromium names itself HeadlessChrome, which counts as a bot.
    const visitor = await browser.newContext({
      viewport: { width: 390, height: 844 },
      userAgent:
        'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
    });
    const visit = await visitor.newPage();
    await visit.goto(`${api.url}/@${username}`);
    await visit.getByText('Seller of purple, from Thyatira.').waitFor();
    const buttons = visit.getByRole('navigation', { name: 'Links' }).getByRole('link');
    expect(await buttons.locator('.plink-title').allTextContents()).toEqual(['Our church', 'Write to me']);
    // Each button says where it goes, under its title.
    expect(await buttons.locator('.plink-host').allTextContents()).toEqual([
      new URL(api.url).hostname,
      'lydia@example.com',
    ]);
    expect(await seriousA11yViolations(visit)).toEqual([]);
    await screenshots(visit, 'links-on-page');

    // Following a link goes through /l/<id> to the address, and the click is counted.
    await buttons.getByText('Our church').click();
    await visit.waitForURL(`${api.url}/playground?from=page`);
    const church = stored[0];
    expect(church?.url).toBe(`${api.url}/playground?from=page`);
    const clicks = await api.dataSource.getRepository(LinkClickDayRecord).findBy({ linkId: church?.id ?? '' });
    expect(clicks.map((row) => row.clicks)).toEqual([1]);
    await visitor.close();
    await context.close();
  });
});
