import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LinkRecord } from '../../server/src/links/link.entity.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';
import type { SignedUpMember } from '../support/members.js';
import { signUpMember } from '../support/members.js';
import { checkScreen, logIn, newPage } from '../support/screens.js';

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

/** A member past the welcome screen, with Plus while the links are set up, and these links. */
async function memberWithLinks(
  first: string,
  links: { title: string; visibleFrom?: string; visibleUntil?: string; highlighted?: boolean }[],
): Promise<SignedUpMember & { ids: string[] }> {
  const member = await signUpMember(api, { first });
  await api.app.billing.grant(member.email);
  const token = member.session.accessToken;
  const call = async <T>(query: string, variables: Record<string, unknown> = {}) => {
    const response = await api.graphql<T>(query, variables, { token });
    expect(response.errors).toBeUndefined();
    return response.data;
  };
  await call('mutation { completeWelcome { welcome } }');
  const ids: string[] = [];
  for (const { title, ...plus } of links) {
    const added = await call<{ addLink: { id: string } }>(
      'mutation ($input: LinkInput!) { addLink(input: $input) { id } }',
      { input: { title, url: `https://example.com/${title.toLowerCase()}` } },
    );
    const id = added?.addLink.id ?? '';
    ids.push(id);
    if (Object.keys(plus).length > 0) {
      await call('mutation ($id: ID!, $input: UpdateLinkInput!) { updateLink(id: $id, input: $input) { id } }', {
        id,
        input: plus,
      });
    }
  }
  return { ...member, ids };
}

async function openEditor(page: Page, member: SignedUpMember): Promise<void> {
  await logIn(page, api.url, member.email, member.password);
  await page.goto(`${api.url}/profile`);
  await page.locator('#links-title').waitFor();
}

const previewLinks = (page: Page) => page.locator('#editor-preview .profile-links li');

describe("the editor's preview", () => {
  it('leaves out a link outside its schedule, as the page does, and draws the highlight', async () => {
    const member = await memberWithLinks('Junia', [
      { title: 'Advent', visibleFrom: '2999-12-01T00:00', visibleUntil: '2999-12-25T00:00' },
      { title: 'Lent', visibleFrom: '2000-03-01T00:00', visibleUntil: '2000-04-01T00:00' },
      { title: 'Sermons', highlighted: true },
      { title: 'Always', visibleFrom: '2000-01-01T00:00' },
    ]);
    const { context, page } = await newPage(browser);
    await openEditor(page, member);
    await expect
      .poll(() => previewLinks(page).locator('.plink-title').allTextContents())
      .toEqual(['Sermons', 'Always']);
    expect(await previewLinks(page).first().getAttribute('class')).toContain('plink-highlighted');
    // The list still holds every link, each with its schedule.
    expect(await page.getByRole('list', { name: 'Your links' }).getByRole('listitem').count()).toBe(4);

    const visitor = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const visit = await visitor.newPage();
    await visit.goto(`${api.url}/@${member.member.profile.username}`);
    const onPage = visit.getByRole('navigation', { name: 'Links' }).getByRole('listitem');
    await onPage.first().waitFor();
    expect(await onPage.locator('.plink-title').allTextContents()).toEqual(['Sermons', 'Always']);
    await visitor.close();
    await context.close();
  });

  it('follows the translation the member picks before it is saved, and after', async () => {
    const member = await memberWithLinks('Tabitha', []);
    const { context, page } = await newPage(browser);
    await openEditor(page, member);
    const preview = page.locator('#editor-preview');
    const shown = async () => ({
      translation: await preview.locator('.verse-ref .translation').textContent(),
      text: await preview.locator('.verse-text').textContent(),
    });
    const today = async (translation: 'KJV' | 'WEB') => {
      const answer = await api.graphql<{ verseOfTheDay: { text: string } }>(
        'query ($t: Translation) { verseOfTheDay(timeZone: "America/Chicago", translation: $t) { text } }',
        { t: translation },
      );
      return answer.data?.verseOfTheDay.text;
    };
    const kjv = await today('KJV');
    const web = await today('WEB');
    expect(web).not.toBe(kjv);
    await expect.poll(shown).toEqual({ translation: 'KJV', text: kjv });

    await page.getByRole('radio', { name: 'World English Bible (WEB)' }).check();
    await expect.poll(shown).toEqual({ translation: 'WEB', text: web });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Your page is saved.').waitFor();
    expect(await shown()).toEqual({ translation: 'WEB', text: web });

    await page.getByRole('radio', { name: 'King James (KJV)' }).check();
    await expect.poll(shown).toEqual({ translation: 'KJV', text: kjv });
    await context.close();
  });
});

describe('a link’s Plus choices after Plus ends', () => {
  it('are cleared by the member, and the preview no longer draws them meanwhile', async () => {
    const member = await memberWithLinks('Lois', [
      { title: 'Advent', visibleFrom: '2999-12-01T00:00', visibleUntil: '2999-12-25T00:00' },
      { title: 'Sermons', highlighted: true },
    ]);
    const [advent = '', sermons = ''] = member.ids;
    await api.app.billing.revoke(member.email);
    const { context, page } = await newPage(browser);
    await openEditor(page, member);
    const item = (title: string) => page.locator('.link-item').filter({ hasText: title });
    await item('Advent')
      .getByText(/kept for when Plus returns/)
      .waitFor();
    await item('Sermons')
      .getByText(/Highlighted \(kept for when Plus returns/)
      .waitFor();
    // Without Plus the page shows every link as any other; so does the preview.
    await expect
      .poll(() => previewLinks(page).locator('.plink-title').allTextContents())
      .toEqual(['Advent', 'Sermons']);
    expect((await previewLinks(page).last().getAttribute('class')) ?? '').not.toContain('plink-highlighted');
    await checkScreen(page, 'links-editor-plus-ended');

    await page.getByRole('button', { name: 'Clear schedule and highlight of “Advent”' }).click();
    await page.getByText('“Advent” has no schedule or highlight kept.').waitFor();
    await page.getByRole('button', { name: 'Clear schedule and highlight of “Sermons”' }).click();
    await page.getByText('“Sermons” has no schedule or highlight kept.').waitFor();
    expect(await page.getByText(/kept for when Plus returns/).count()).toBe(0);

    const stored = await api.dataSource.getRepository(LinkRecord).findBy({ uid: member.member.user.uid });
    expect(
      stored.map(({ id, visibleFrom, visibleUntil, highlighted }) => ({ id, visibleFrom, visibleUntil, highlighted })),
    ).toEqual(
      expect.arrayContaining([
        { id: advent, visibleFrom: null, visibleUntil: null, highlighted: false },
        { id: sermons, visibleFrom: null, visibleUntil: null, highlighted: false },
      ]),
    );
    await context.close();
  });
});
