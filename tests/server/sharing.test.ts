import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import type { SignedUpMember } from '../support/members.js';
import { signUpMember } from '../support/members.js';
import { latestToday } from '../../server/src/rules/dates.js';

// The page's meta tags are written where the server sends the page; the web app's index.html stands in for a build.
const distDir = mkdtempSync(path.join(tmpdir(), 'lampstand-dist-'));
copyFileSync(path.resolve(import.meta.dirname, '../../web/index.html'), path.join(distDir, 'index.html'));
mkdirSync(path.join(distDir, 'assets'));

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp({ AUTH_RATE_LIMIT_OTP: '1000', WEB_DIST_DIR: distDir });
});
afterAll(async () => {
  await api.close();
  rmSync(distDir, { recursive: true, force: true });
});

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const UPDATE = `mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { name } }`;

async function get(
  pathname: string,
  headers: Record<string, string> = {},
): Promise<{ response: Response; body: Buffer }> {
  const response = await fetch(`${api.url}${pathname}`, { headers });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

async function updateProfile(member: SignedUpMember, input: Record<string, unknown>): Promise<void> {
  const response = await api.graphql(UPDATE, { input }, { token: member.session.accessToken });
  expect(response.errors).toBeUndefined();
}

/** What a phone's camera reads from a QR code image. */
async function scan(png: Buffer): Promise<string | undefined> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data;
}

function meta(html: string, attribute: 'name' | 'property', key: string): string[] {
  const pattern = new RegExp(`<meta ${attribute}="${key}" content="([^"]*)"`, 'g');
  return [...html.matchAll(pattern)].map((match) => match[1] ?? '');
}

describe("a page's share card", () => {
  it('is a 1200×630 PNG that changes when the name does', async () => {
    const member = await signUpMember(api, { first: 'Dorcas' });
    const { username } = member.member.profile;
    const first = await get(`/share/${username}/card.png`);
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get('content-type')).toBe('image/png');
    expect(first.body.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(await sharp(first.body).metadata()).toMatchObject({ format: 'png', width: 1200, height: 630 });
    const etag = first.response.headers.get('etag');
    expect(etag).toBeTruthy();

    // A client holding the same card is told it is still good…
    const again = await get(`/share/${username}/card.png`, { 'if-none-match': etag ?? '' });
    expect(again.response.status).toBe(304);

    // …until the page changes.
    await updateProfile(member, { name: 'Tabitha of Joppa' });
    const renamed = await get(`/share/${username}/card.png`, { 'if-none-match': etag ?? '' });
    expect(renamed.response.status).toBe(200);
    expect(renamed.response.headers.get('etag')).not.toBe(etag);
    expect(renamed.body.equals(first.body)).toBe(false);
    expect(await sharp(renamed.body).metadata()).toMatchObject({ width: 1200, height: 630 });
  });

  it("carries the member's photo, and is drawn again when the photo changes", async () => {
    const member = await signUpMember(api, { first: 'Lydia' });
    const { username } = member.member.profile;
    const before = await get(`/share/${username}/card.png`);
    const upload = await fetch(`${api.url}/api/photo`, {
      method: 'PUT',
      headers: { 'content-type': 'image/png', authorization: `Bearer ${member.session.accessToken}` },
      body: new Uint8Array(
        await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 42, g: 127, b: 98 } } })
          .png()
          .toBuffer(),
      ),
    });
    expect(upload.status).toBe(200);
    const after = await get(`/share/${username}/card.png`, {
      'if-none-match': before.response.headers.get('etag') ?? '',
    });
    expect(after.response.status).toBe(200);
    // The photo's middle, left of the name (the card's padding is 80 px, the photo 136 px).
    const { data, info } = await sharp(after.body).raw().toBuffer({ resolveWithObject: true });
    const at = (124 * info.width + 148) * info.channels;
    const [r = 0, g = 0, b = 0] = [data[at], data[at + 1], data[at + 2]];
    expect(Math.abs(r - 42) + Math.abs(g - 127) + Math.abs(b - 98)).toBeLessThan(24);
  });

  it("names the page's translation: a page in the World English Bible gets a card of its own", async () => {
    const member = await signUpMember(api);
    const { username } = member.member.profile;
    const kjv = await get(`/share/${username}/card.png`);
    await updateProfile(member, { translation: 'WEB' });
    const web = await get(`/share/${username}/card.png`);
    expect(web.response.status).toBe(200);
    expect(web.response.headers.get('etag')).not.toBe(kjv.response.headers.get('etag'));
  });

  it('is named in the page’s Open Graph and Twitter tags', async () => {
    const member = await signUpMember(api);
    const { username } = member.member.profile;
    const response = await fetch(`${api.url}/@${username}`);
    const html = await response.text();
    const [image] = meta(html, 'property', 'og:image');
    expect(image).toMatch(new RegExp(`^${api.url}/share/${username}/card\\.png\\?day=\\d{4}-\\d{2}-\\d{2}$`));
    expect(meta(html, 'name', 'twitter:image')).toEqual([image]);
    expect(meta(html, 'name', 'twitter:card')).toEqual(['summary_large_image']);
    expect(meta(html, 'property', 'og:image:width')).toEqual(['1200']);
    expect(meta(html, 'property', 'og:image:height')).toEqual(['630']);
    const card = await fetch(image ?? '');
    expect(card.status).toBe(200);
  });

  it('does not exist for a private page', async () => {
    const member = await signUpMember(api);
    await updateProfile(member, { isPublic: false });
    const { username } = member.member.profile;
    for (const file of ['card.png', 'qr.svg', 'qr.png']) {
      expect((await get(`/share/${username}/${file}`)).response.status).toBe(404);
    }
  });
});

describe("a page's QR code", () => {
  it('reads as the page’s address, as a PNG and as an SVG', async () => {
    const member = await signUpMember(api);
    const { username } = member.member.profile;
    const png = await get(`/share/${username}/qr.png`);
    expect(png.response.status).toBe(200);
    expect(png.response.headers.get('content-type')).toBe('image/png');
    expect(await scan(png.body)).toBe(`${api.url}/@${username}`);

    const svg = await get(`/share/${username}/qr.svg`);
    expect(svg.response.status).toBe(200);
    expect(svg.response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const drawn = Buffer.from(new Resvg(svg.body, { fitTo: { mode: 'width', value: 400 } }).render().asPng());
    expect(await scan(drawn)).toBe(`${api.url}/@${username}`);
  });
});

describe('the verse of the day card', () => {
  it('is a 1200×630 PNG for a day, kept for a year (a day’s verse never changes)', async () => {
    const { response, body } = await get('/share/verse-of-the-day/2025-11-25.png');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await sharp(body).metadata()).toMatchObject({ format: 'png', width: 1200, height: 630 });
    const other = await get('/share/verse-of-the-day/2025-11-26.png');
    expect(other.response.headers.get('etag')).not.toBe(response.headers.get('etag'));
  });

  it('is drawn in the World English Bible when asked, and in the KJV for anything else', async () => {
    const kjv = await get('/share/verse-of-the-day/2025-11-25.png');
    const web = await get('/share/verse-of-the-day/2025-11-25.png?translation=WEB');
    expect(web.response.status).toBe(200);
    expect(web.response.headers.get('etag')).not.toBe(kjv.response.headers.get('etag'));
    expect(web.body.equals(kjv.body)).toBe(false);
    const unknown = await get('/share/verse-of-the-day/2025-11-25.png?translation=NIV');
    expect(unknown.response.headers.get('etag')).toBe(kjv.response.headers.get('etag'));
  });

  it("is the home page's Open Graph and Twitter image", async () => {
    const html = await (await fetch(`${api.url}/`)).text();
    const [image] = meta(html, 'property', 'og:image');
    expect(image).toMatch(new RegExp(`^${api.url}/share/verse-of-the-day/\\d{4}-\\d{2}-\\d{2}\\.png$`));
    expect(meta(html, 'name', 'twitter:image')).toEqual([image]);
    const card = await fetch(image ?? '');
    expect(card.status).toBe(200);
    expect(card.headers.get('content-type')).toBe('image/png');
  });

  it.each(['2026-13-01.png', '2026-02-30.png', 'today.png', '2026-11-25.jpg', '9999-12-31.png', '1999-12-31.png'])(
    'is not found for %s',
    async (file) => {
      expect((await get(`/share/verse-of-the-day/${file}`)).response.status).toBe(404);
    },
  );

  it('is drawn for the latest day begun anywhere, and not for the day after it', async () => {
    const latest = latestToday();
    expect((await get(`/share/verse-of-the-day/${latest}.png`)).response.status).toBe(200);
    const next = new Date(Date.parse(`${latest}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect((await get(`/share/verse-of-the-day/${next}.png`)).response.status).toBe(404);
  });
});
