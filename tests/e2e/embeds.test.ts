import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LinkRecord } from '../../server/src/links/link.entity.js';
import { verseEmbedSnippet } from '../../server/src/rules/embeds.js';
import type { TestApp } from '../support/app.js';
import { freePort, startTestApp } from '../support/app.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';
import { insertMember } from '../support/factories.js';
import { signUpMember } from '../support/members.js';
import { logIn } from '../support/screens.js';

let api: TestApp;
let browser: TestBrowser;
let church: Server;
let churchUrl: string;
/** What the church's site serves at its root; each test writes its own. */
let churchPage = '';

beforeAll(async () => {
  api = await startTestApp({ WEB_DIST_DIR: inject('webDistDir') });
  browser = await launchBrowser();
  // A church's website on another origin, which pastes the snippets into its own HTML.
  const port = await freePort();
  church = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(churchPage);
  });
  await new Promise<void>((resolve) => church.listen(port, '127.0.0.1', resolve));
  churchUrl = `http://localhost:${port}`;
});
afterAll(async () => {
  await browser.close();
  await api.close();
  await new Promise((resolve) => church.close(resolve));
});

const site = (body: string) => `<!doctype html><title>Grace Church</title><h1>Welcome to Grace Church</h1>${body}`;

/** The frame of the `<iframe>` that `selector` finds, once it has loaded. */
async function frameOf(page: Page, selector: string): Promise<Frame> {
  const element = await page.waitForSelector(selector, { state: 'attached' });
  const frame = await element.contentFrame();
  if (!frame) throw new Error(`${selector} has no frame`);
  await frame.waitForLoadState();
  return frame;
}

describe('a church website on another origin', () => {
  it("shows a member's page through oEmbed and the verse of the day, each in its frame", async () => {
    const { profile } = await insertMember(api.dataSource, {
      profile: { name: 'Phoebe', bio: 'Servant of the church' },
    });
    const linkId = crypto.randomUUID();
    await api.dataSource.getRepository(LinkRecord).insert({
      id: linkId,
      uid: profile.uid,
      title: 'Sunday service',
      url: 'https://church.example/sunday',
      position: 0,
      hidden: false,
      createdAt: new Date(),
    });
    const oembed = (await (
      await fetch(`${api.url}/oembed?url=${encodeURIComponent(`${api.url}/@${profile.username}`)}`)
    ).json()) as { html: string };
    const today = await api.graphql<{ verseOfTheDay: { ref: string } }>('{ verseOfTheDay(translation: WEB) { ref } }');
    churchPage = site(
      `<div id="pastor">${oembed.html}</div><div id="verse">${verseEmbedSnippet(api.url, { theme: 'dark', translation: 'web' })}</div>`,
    );

    const context = await browser.newContext();
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(churchUrl);

    const pastor = await frameOf(page, '#pastor iframe');
    await pastor.locator('h1').filter({ hasText: 'Phoebe' }).waitFor();
    expect(await pastor.locator('.bio').textContent()).toBe('Servant of the church');
    const link = pastor.getByRole('link', { name: 'Sunday service' });
    expect(await link.getAttribute('href')).toBe(`/l/${linkId}`);
    expect(await pastor.locator('a[href$="/@' + profile.username + '"]').count()).toBe(1);

    const verse = await frameOf(page, '#verse iframe');
    await verse.getByText('World English Bible').waitFor();
    expect(await verse.locator('.ref').textContent()).toContain(today.data?.verseOfTheDay.ref ?? 'no verse');

    // Nothing but the two sites was asked for (no analytics), and nothing was left in the browser.
    const origins = new Set(requested.map((url) => new URL(url).origin));
    expect([...origins].sort()).toEqual([new URL(api.url).origin, new URL(churchUrl).origin].sort());
    expect(await context.cookies()).toEqual([]);
    expect(browser.cspViolations()).toEqual([]);
    await context.close();
  });

  it('cannot frame the page itself', async () => {
    const { profile } = await insertMember(api.dataSource, { profile: { name: 'Junia' } });
    churchPage = site(`<iframe id="direct" src="${api.url}/@${profile.username}" width="400" height="400"></iframe>`);
    // The refusal is a policy report on the console, which the shared browser counts as a fault:
    // this test opens a context of its own and reads the report itself.
    const context = await browser.browser.newContext();
    const reports: string[] = [];
    context.on('console', (message) => {
      if (message.text().includes('frame-ancestors')) reports.push(message.text());
    });
    const page = await context.newPage();
    await page.goto(churchUrl);
    const direct = await frameOf(page, '#direct');
    await expect.poll(() => reports.length, { timeout: 60_000 }).toBeGreaterThan(0);
    expect(reports[0]).toContain("frame-ancestors 'none'");
    expect(direct.url()).not.toContain(`/@${profile.username}`);
    expect(await direct.content()).not.toContain('Junia');
    await context.close();
  });
});

describe('"Share on your website" in the editor', () => {
  it('shows both snippets with a preview, and copies a snippet', async () => {
    const { email, password, session, member } = await signUpMember(api, { first: 'Tabitha' });
    const welcomed = await api.graphql('mutation { completeWelcome { welcome } }', {}, { token: session.accessToken });
    expect(welcomed.errors).toBeUndefined();
    const username = member.profile.username;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.url });
    const page = await context.newPage();
    await logIn(page, api.url, email, password);
    await page.goto(`${api.url}/profile`);
    const section = page.getByRole('region', { name: 'Share on your website' });
    await section.waitFor();

    const pageCode = section.getByLabel('Snippet: Compact page');
    expect(await pageCode.inputValue()).toContain(`src="${api.url}/embed/@${username}"`);
    await section.getByLabel('Colours').selectOption('dark');
    await section.getByLabel('Bible translation for the verse').selectOption('web');
    expect(await section.getByLabel('Snippet: Verse of the day').inputValue()).toContain(
      `src="${api.url}/embed/verse?theme=dark&amp;translation=web"`,
    );

    // Each preview loads when asked for; the second button is the first left to show.
    await section.getByRole('button', { name: 'Show preview' }).first().click();
    await section.getByRole('button', { name: 'Show preview' }).first().click();
    expect(await section.getByRole('button', { name: 'Hide preview' }).count()).toBe(2);
    const preview = await frameOf(page, `iframe[title="Preview: Compact page"]`);
    await preview.locator('h1').filter({ hasText: 'Tabitha' }).waitFor();
    const versePreview = await frameOf(page, `iframe[title="Preview: Verse of the day"]`);
    await versePreview.getByText('World English Bible').waitFor();

    await section.getByRole('button', { name: 'Copy snippet' }).first().click();
    await section.getByText('Snippet copied.').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await section.getByLabel('Snippet: Compact page').inputValue());
    await context.close();
  });
});
