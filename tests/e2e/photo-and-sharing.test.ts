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

describe("a member's photo and the page's sharing", () => {
  it('a photo chosen in the editor shows on the page, and the page offers its link, QR code and verse image', async () => {
    const { email, password, session, member } = await signUpMember(api, { first: 'Priscilla' });
    const welcomed = await api.graphql('mutation { completeWelcome { welcome } }', {}, { token: session.accessToken });
    expect(welcomed.errors).toBeUndefined();
    const username = member.profile.username;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await logIn(page, api.url, email, password);
    await page.goto(`${api.url}/profile`);
    await page.getByRole('heading', { name: 'Photo' }).waitFor();
    await page.getByRole('img', { name: 'No photo: your initial' }).waitFor();

    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && request.url().endsWith('/api/photo')) uploads.push(request.url());
    });
    // A file that only claims to be a photo is refused as it is picked, in words people understand,
    // and nothing is sent.
    await page.getByLabel('Choose a photo').setInputFiles({
      name: 'holiday.png',
      mimeType: 'image/png',
      buffer: Buffer.from('this is a text file, not a photo'),
    });
    await page.getByText('We couldn’t read that file as a photo.', { exact: false }).waitFor();
    expect(await page.getByRole('img', { name: /Your new photo/ }).count()).toBe(0);
    expect(uploads).toEqual([]);
    // The picker says that a photo is saved as soon as it is chosen; there is no separate Save.
    await page.getByText('saved as soon as you choose it', { exact: false }).waitFor();

    await page.getByLabel('Choose a photo').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: await pngImage(640, 480),
    });
    await page.getByText('Your photo is saved.').waitFor();
    expect(uploads).toHaveLength(1);
    expect(await page.getByRole('button', { name: 'Save photo' }).count()).toBe(0);
    const saved = page.getByRole('img', { name: 'Your photo', exact: true });
    await saved.waitFor();
    const photoUrl = await saved.getAttribute('src');
    expect(photoUrl).toMatch(new RegExp(`^${api.url}/p/${member.user.uid}/[A-Za-z0-9_-]{16}\\.webp$`));
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, 'photo-picker');

    const visitor = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const visit = await visitor.newPage();
    await visit.goto(`${api.url}/@${username}`);
    const photo = visit.locator('.profile-card img.monogram--photo');
    await photo.waitFor();
    expect(await photo.getAttribute('src')).toBe(photoUrl);
    await visit.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('.profile-card img.monogram--photo');
      return image?.complete === true && image.naturalWidth === 256;
    });

    await visit.getByRole('button', { name: 'QR code & image' }).click();
    const dialog = visit.getByRole('dialog', { name: 'Share this page' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: /^(Share|Copy) link$/ }).waitFor();
    await dialog.getByText(`${api.url}/@${username}`).waitFor();
    const qr = dialog.getByRole('img', { name: `QR code that opens ${api.url}/@${username}` });
    expect(await qr.getAttribute('src')).toBe(`/share/${username}/qr.svg`);
    expect(await dialog.getByRole('link', { name: 'Download SVG' }).getAttribute('href')).toBe(
      `/share/${username}/qr.svg`,
    );
    expect(await dialog.getByRole('link', { name: 'Download PNG' }).getAttribute('href')).toBe(
      `/share/${username}/qr.png`,
    );
    await dialog.getByRole('button', { name: 'Share image' }).waitFor();
    // Both images arrive and draw (the QR code and the 1200×630 verse card).
    await visit.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('dialog img')].every(
        (image) => image.complete && image.naturalWidth > 0,
      ),
    );
    const verseWidth = await dialog
      .getByRole('img', { name: 'Today’s verse on a card' })
      .evaluate((image) => (image as HTMLImageElement).naturalWidth);
    expect(verseWidth).toBe(1200);
    expect(await seriousA11yViolations(visit)).toEqual([]);
    await screenshots(visit, 'share-dialog');
    await visit.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Remove asks first, as a link's Remove does: keeping it changes nothing.
    const removals: string[] = [];
    page.on('request', (request) => {
      if (request.postData()?.includes('"operationName":"RemovePhoto"')) removals.push(request.url());
    });
    await page.getByRole('button', { name: 'Remove photo' }).click();
    const question = page.getByRole('group', { name: /Remove your photo\?/ });
    await question.waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshots(page, 'photo-remove-question');
    await question.getByRole('button', { name: 'Keep it' }).click();
    await question.waitFor({ state: 'detached' });
    expect(removals).toEqual([]);
    await saved.waitFor();
    // Removing the photo brings the initial back.
    await page.getByRole('button', { name: 'Remove photo' }).click();
    await question.getByRole('button', { name: 'Remove photo' }).click();
    await page.getByText('Your photo is removed.', { exact: false }).waitFor();
    expect(removals).toHaveLength(1);
    await visit.reload();
    await visit.locator('.profile-card .monogram').first().waitFor();
    expect(await visit.locator('.profile-card img.monogram--photo').count()).toBe(0);
    await visitor.close();
    await context.close();
  });
});
