import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readKjv } from '../../server/src/verses/kjv.js';
import { verseCalendar } from '../../server/src/verses/calendar.js';
import { todayIn } from '../../server/src/verses/day.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { TestBrowser } from '../support/browser.js';
import { launchBrowser } from '../support/browser.js';

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

describe('the landing page', () => {
  it("shows today's verse in the visitor's time zone", async () => {
    const timeZone = 'Pacific/Kiritimati';
    if (!api || !browser) throw new Error('setup failed');
    const context = await browser.newContext({ timezoneId: timeZone, locale: 'en-US' });
    const page = await context.newPage();
    const before = todayIn(timeZone).monthDay;
    await page.goto(api.url);
    await expect.poll(() => page.locator('.verse-text').count(), { timeout: 15_000 }).toBe(1);
    const after = todayIn(timeZone).monthDay;
    const shown = (await page.locator('.verse-text').innerText()).trim();
    const reference = (await page.locator('.verse-ref').innerText()).trim();
    const candidates = [before, after].map((day) => kjv.get(verseCalendar[day] ?? ''));
    const expected = candidates.find((verse) => verse?.text === shown);
    expect(expected, `shown: ${shown}`).toBeDefined();
    expect(reference).toContain(expected?.ref);
    expect(await page.title()).toBe('Lampstand');
    await context.close();
  });
});
