import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestToday } from '../../server/src/rules/dates.js';
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
    expect(html).toContain(`href="/verse/2024-02-28" rel="prev"`);
    // Its only script is the share action's, from the site itself; the page reads without it.
    expect([...html.matchAll(/<script[^>]*>/g)].map((match) => match[0])).toEqual([
      '<script src="/verse/share.js" defer>',
    ]);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('looks like the rest of the site: its header and logo, its favicon and its credits', async () => {
    const html = await (await fetch(`${api.url}/verse/2024-02-29`)).text();
    expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml" />');
    expect(html).toMatch(/<header class="site-header">\s*<a class="brand" href="\/" aria-label="Lampstand home"><svg/);
    expect(html).toContain('King James Version (1769) and the World English Bible');
  });

  it("shows the day's card in link previews, in the page's translation", async () => {
    const kjv = await (await fetch(`${api.url}/verse/2024-02-29`)).text();
    expect(kjv).toContain(`<meta property="og:image" content="${api.url}/share/verse-of-the-day/2024-02-29.png" />`);
    expect(kjv).toContain('<meta name="twitter:card" content="summary_large_image" />');
    expect(kjv).toContain(`<meta name="twitter:image" content="${api.url}/share/verse-of-the-day/2024-02-29.png" />`);
    const web = await (await fetch(`${api.url}/verse/2024-02-29?translation=WEB`)).text();
    const image = /<meta property="og:image" content="([^"]+)"/.exec(web)?.[1] ?? '';
    expect(image).toBe(`${api.url}/share/verse-of-the-day/2024-02-29.png?translation=WEB`);
    const card = await fetch(image);
    expect(card.status).toBe(200);
    expect(card.headers.get('content-type')).toBe('image/png');
    // Days before the first card have a page, and a text-only preview.
    const old = await (await fetch(`${api.url}/verse/1999-12-31`)).text();
    expect(old).not.toContain('og:image');
    expect(old).toContain('<meta name="twitter:card" content="summary" />');
  });

  it('has a share action: the share sheet or a copied link with its script, an email without', async () => {
    const html = await (await fetch(`${api.url}/verse/2024-02-29`)).text();
    const action = /<a class="button" href="([^"]*)" data-share-url="([^"]*)"[^>]*>.*?Share this day<\/a>/.exec(html);
    expect(action?.[2]).toBe(`${api.url}/verse/2024-02-29`);
    expect(action?.[1]?.replaceAll('&amp;', '&')).toBe(
      `mailto:?subject=${encodeURIComponent('Psalm 118:24 · Verse of the day, Thursday, 29 February 2024')}&body=${encodeURIComponent(`${api.url}/verse/2024-02-29`)}`,
    );
    expect(html).toContain('<p id="share-status" class="status" role="status"></p>');
    const script = await fetch(`${api.url}/verse/share.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toContain('navigator.share');
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
