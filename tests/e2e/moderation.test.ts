import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { UserRecord } from '../../server/src/members/user.entity.js';
import { ReportRecord } from '../../server/src/moderation/moderation.entities.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';
import type { SignedUpMember } from '../support/members.js';
import { signUpMember } from '../support/members.js';
import { logIn, seriousA11yViolations } from '../support/screens.js';

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

async function signedInPage(member: SignedUpMember) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  await logIn(page, api.url, member.email, member.password);
  return { context, page };
}

describe('moderation in the browser', () => {
  it('lets a visitor without an account report a page, and confirms it', async () => {
    const { member } = await signUpMember(api, { first: 'Jezebel' });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${api.url}/@${member.profile.username}`);
    await page.getByRole('button', { name: 'Report this page' }).click();
    await page.getByRole('button', { name: 'Send report' }).click();
    await page.getByText('Choose why you are reporting this page.').waitFor();
    await page.getByLabel('Why are you reporting it?').selectOption('impersonation');
    await page.getByLabel(/Anything else we should know/).fill('Claims to be our pastor.');
    await page.getByRole('button', { name: 'Send report' }).click();
    await page.getByText('Your report was sent to the Lampstand team').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    const reports = await api.dataSource.getRepository(ReportRecord).findBy({ uid: member.user.uid });
    expect(reports).toEqual([expect.objectContaining({ reason: 'impersonation', note: 'Claims to be our pastor.' })]);
    await context.close();
  });

  it('lets a member download their data and see why an operator hid their page', async () => {
    const member = await signUpMember(api, { first: 'Dorcas' });
    const { uid } = member.member.user;
    await api.graphql('mutation { completeWelcome { welcome } }', {}, { token: member.session.accessToken });
    const { context, page } = await signedInPage(member);

    await page.goto(`${api.url}/account`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download my data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^lampstand-.+\.json$/);
    const data = JSON.parse(readFileSync(await download.path(), 'utf8')) as { account: { id: string; email: string } };
    expect(data.account).toMatchObject({ id: uid, email: member.email });
    await page.getByText(/^Saved lampstand-/).waitFor();

    await api.dataSource
      .getRepository(UserRecord)
      .update({ uid }, { hiddenReason: 'Sells counterfeit tickets.', hiddenAt: new Date() });
    await page.reload();
    await page.getByRole('heading', { name: 'Your page is hidden by the Lampstand team' }).waitFor();
    await page.getByText('Reason: Sells counterfeit tickets.').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.goto(`${api.url}/profile`);
    await page.getByText('Reason: Sells counterfeit tickets.').waitFor();

    const visitor = await browser.newContext();
    const response = await (await visitor.newPage()).goto(`${api.url}/@${member.member.profile.username}`);
    expect(response?.status()).toBe(404);
    await visitor.close();
    await context.close();
  });
});
