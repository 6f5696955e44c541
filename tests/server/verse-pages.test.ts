import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestToday } from '../../server/src/verses/day.js';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => {
  await api.close();
});

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

describe('/verse/YYYY-MM-DD', () => {
  it("is a page of that day's verse, readable without JavaScript, with link-preview tags", async () => {
    const response = await fetch(`${api.url}/verse/2024-02-29`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('This is the day which the LORD hath made; we will rejoice and be glad in it.');
    expect(html).toContain('Psalm 118:24');
    expect(html).toContain('Thursday, 29 February 2024');
    expect(html).toContain(`<link rel="canonical" href="${api.url}/verse/2024-02-29" />`);
    expect(html).toContain(
      '<meta property="og:title" content="Psalm 118:24 · Verse of the day, Thursday, 29 February 2024 · Lampstand" />',
    );
    expect(html).toMatch(
      /<meta property="og:description" content="“This is the day which the LORD hath made; [^"]*" \/>/,
    );
    expect(html).toContain('<meta name="twitter:card" content="summary" />');
    expect(html).toContain(`href="/verse/2024-02-28" rel="prev"`);
    expect(html).not.toContain('<script');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('shows the World English Bible when asked, with its own canonical address', async () => {
    const html = await (await fetch(`${api.url}/verse/2024-02-29?translation=WEB`)).text();
    expect(html).toContain('This is the day that Yahweh has made. We will rejoice and be glad in it!');
    expect(html).toContain('World English Bible');
    expect(html).toContain(`<link rel="canonical" href="${api.url}/verse/2024-02-29?translation=WEB" />`);
  });

  it('escapes what it writes into the page', async () => {
    // A query the page does not know is not written into it.
    const html = await (await fetch(`${api.url}/verse/2026-03-04?translation=%22%3E%3Cscript%3E`)).text();
    expect(html).not.toContain('"><script>');
    expect(html).toContain('For every house is builded by some man; but he that built all things is God.');
  });

  it('answers 404 for dates that do not exist and for what is not a date', async () => {
    for (const path of ['/verse/2027-02-29', '/verse/2026-13-01', '/verse/yesterday', '/verse/2026-1-1']) {
      const response = await fetch(`${api.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).toContain('No verse for this day');
    }
  });

  it('has a page for every day that has begun somewhere on Earth, and none later', async () => {
    const latest = latestToday();
    expect((await fetch(`${api.url}/verse/${latest}`)).status).toBe(200);
    const tomorrow = await fetch(`${api.url}/verse/${addDays(latest, 1)}`);
    expect(tomorrow.status).toBe(404);
    expect(await tomorrow.text()).toContain('has not begun anywhere yet');
    const latestPage = await (await fetch(`${api.url}/verse/${latest}`)).text();
    expect(latestPage).not.toContain('rel="next"');
  });
});
