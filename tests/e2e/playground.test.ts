import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';
import { pngImage } from '../support/images.js';
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

/** The answer GraphiQL shows, without whitespace: the editor wraps long lines and draws spaces its own way. */
async function shownAnswer(page: Page): Promise<string> {
  return (await page.locator('.graphiql-response').innerText()).replace(/\s+/g, '');
}

/**
 * Runs the open tab's operation until the answer contains `expected` (compared without
 * whitespace). GraphiQL takes a new tab's operation name a moment after showing its document, and
 * a run before then asks for the previous tab's operation; like a person, the poll runs it again
 * (once the last run is over: the button says "Stop query" meanwhile) until the answer is right.
 */
async function runUntilAnswered(page: Page, expected: string): Promise<void> {
  const answered = async () => {
    if ((await shownAnswer(page)).includes(expected)) return true;
    await page.getByRole('button', { name: /Execute query/ }).click();
    return false;
  };
  await expect.poll(answered).toBe(true);
}

describe('the GraphQL playground', () => {
  it('opens on the examples, ready to run, without loading GraphiQL or its editor', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`${api.url}/playground`);
    await page.getByRole('heading', { name: 'GraphQL playground' }).waitFor();
    expect(await page.getByRole('group', { name: 'Examples' }).getByRole('button').allInnerTexts()).toEqual([
      'VerseOfTheDay',
      'VerseLookup',
      'PublicProfile',
    ]);
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => page.getByLabel('Answer').innerText()).toMatch(/"translation":\s+"KJV"/);
    await page.getByRole('button', { name: 'VerseLookup' }).click();
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => page.getByLabel('Answer').innerText()).toMatch(/a lamp unto my feet/);
    // Monaco and GraphiQL are megabytes of script: a visitor who only runs the examples never loads them.
    expect(scripts.filter((file) => /GraphiQL|monaco|contribution|editorBaseApi/i.test(file))).toEqual([]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, 'playground');
    await context.close();
  });

  it('is usable on a phone: the examples, the editors and the answer are all reachable at 390 px', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await page.goto(`${api.url}/playground`);
    await page.getByRole('button', { name: 'Run query' }).click();
    const answer = page.getByLabel('Answer');
    await answer.scrollIntoViewIfNeeded();
    await expect.poll(() => answer.innerText()).toMatch(/"translation":\s+"KJV"/);
    const box = await answer.boundingBox();
    expect(box?.width).toBeGreaterThan(300);
    expect(box?.height).toBeGreaterThan(100);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
      0,
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();
  });

  it('opens GraphiQL on the operation being edited, with the examples, and nothing fetched from elsewhere', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const external: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(api.url) && !url.startsWith('data:') && !url.startsWith('blob:')) external.push(url);
    });
    await page.goto(`${api.url}/playground`);
    await page.getByRole('button', { name: 'Open in GraphiQL' }).click();
    const tabs = page.locator('.graphiql-tab');
    await expect.poll(() => tabs.allInnerTexts()).toEqual(['VerseOfTheDay', 'VerseLookup', 'PublicProfile']);
    await expect.poll(() => page.locator('.graphiql-query-editor').innerText()).toContain('verseOfTheDay');
    await page.getByRole('button', { name: /Execute query/ }).click();
    await expect.poll(() => page.locator('.graphiql-response').innerText()).toMatch(/"translation":\s+"KJV"/);

    await tabs.filter({ hasText: 'VerseLookup' }).getByText('VerseLookup').click();
    await expect.poll(() => page.locator('.graphiql-editor-tool').innerText()).toMatch(/Psalm\s119:105/);
    await expect.poll(() => page.locator('.graphiql-query-editor').innerText()).toMatch(/query\sVerseLookup/);
    await runUntilAnswered(page, 'alampuntomyfeet');

    // A fresh install has no member: signed out, the profile example asks for one to be filled in.
    await tabs.filter({ hasText: 'PublicProfile' }).getByText('PublicProfile').click();
    await expect
      .poll(() => page.locator('.graphiql-query-editor').innerText())
      .toMatch(/\$username:\s+String!\s+=\s+"your_username"/);
    expect(external).toEqual([]);
    expect(await page.title()).toBe('GraphQL playground · Lampstand');
    // GraphiQL's tab bar puts each tab's close button inside the tab (nested-interactive): theirs to fix.
    expect(await seriousA11yViolations(page, ['.graphiql-tabs'])).toEqual([]);
    await screenshots(page, 'playground-graphiql');

    // A later visit: GraphiQL keeps the visitor's tabs, and still opens on the operation brought to it.
    await page.goto(`${api.url}/playground`);
    await page.getByRole('button', { name: 'VerseLookup' }).click();
    await page.getByRole('button', { name: 'Open in GraphiQL' }).click();
    await expect.poll(() => page.locator('.graphiql-query-editor').innerText()).toMatch(/query\sVerseLookup/);
    await context.close();
  });

  it("runs the profile example on the signed-in member's page, with bio, photo, links and the verse's translation", async () => {
    const { email, password, session, member } = await signUpMember(api, { first: 'Priscilla' });
    await api.app.billing.grant(email);
    const token = session.accessToken;
    const call = async (query: string, variables: Record<string, unknown> = {}) => {
      const response = await api.graphql<Record<string, { id?: string }>>(query, variables, { token });
      expect(response.errors).toBeUndefined();
      return response.data;
    };
    await call('mutation { completeWelcome { welcome } }');
    await call('mutation { updateProfile(input: { bio: "Tentmaker in Corinth and Ephesus." }) { bio } }');
    const added = await call('mutation ($input: LinkInput!) { addLink(input: $input) { id } }', {
      input: { title: 'Sermons', url: 'https://www.youtube.com/@priscilla' },
    });
    await call('mutation ($id: ID!) { updateLink(id: $id, input: { highlighted: true }) { id } }', {
      id: added?.addLink?.id,
    });
    const photo = await fetch(`${api.url}/api/photo`, {
      method: 'PUT',
      headers: { 'content-type': 'image/png', authorization: `Bearer ${token}` },
      body: new Uint8Array(await pngImage()),
    });
    expect(photo.status).toBe(200);

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await logIn(page, api.url, email, password);
    await page.goto(`${api.url}/playground`);
    await page.getByRole('button', { name: 'Open in GraphiQL' }).click();
    const tabs = page.locator('.graphiql-tab');
    await expect.poll(() => tabs.allInnerTexts()).toContain('PublicProfile');
    // A click that lands before GraphiQL has wired up its tabs does nothing; a person clicks again,
    // and so does the poll, until the editor shows the tab's document.
    const editor = page.locator('.graphiql-query-editor');
    const showProfileTab = async () => {
      const text = await editor.innerText();
      if (!/query\sPublicProfile/.test(text))
        await tabs.filter({ hasText: 'PublicProfile' }).getByText('PublicProfile').click();
      return text;
    };
    // The member's own username, in the query (the variables' default) whether or not GraphiQL has
    // filled the variables editor in yet.
    await expect
      .poll(showProfileTab)
      .toMatch(
        new RegExp(`query\\sPublicProfile[\\s\\S]*\\$username:\\s+String!\\s+=\\s+"${member.profile.username}"`),
      );
    await runUntilAnswered(page, '"bio":"TentmakerinCorinthandEphesus."');
    const compact = await shownAnswer(page);
    expect(compact).toMatch(/"photoUrl":"[^"]*\/p\/[^"]+\.webp"/);
    expect(compact).toContain(
      '"links":[{"title":"Sermons","url":"https://www.youtube.com/@priscilla","icon":"youtube","highlighted":true}]',
    );
    expect(compact).toMatch(/"verse":\{"ref":"[^"]+","text":"[^"]+","translation":"KJV"\}/);
    await context.close();
  });
});
