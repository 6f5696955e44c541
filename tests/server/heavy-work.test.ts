// Heavy work off the request path (issue 27, quality.md F11): one bound on heavy work with a lane
// for photos and one for cards and QR codes (503 with Retry-After when full), drawn images kept by content, and limits per
// address (drawing) and per member (uploads). The speed of it all is measured by `npm run bench`.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PhotoRecord } from '../../server/src/photos/photo.entity.js';
import type { TestApp } from '../support/app.js';
import { freePort, startTestApp } from '../support/app.js';
import { png16, pngImage } from '../support/images.js';
import type { SignedUpMember } from '../support/members.js';
import { signUpMember } from '../support/members.js';

let api: TestApp;
let metricsUrl: string;
beforeAll(async () => {
  const metricsPort = await freePort();
  metricsUrl = `http://127.0.0.1:${String(metricsPort)}/metrics`;
  api = await startTestApp({
    METRICS_PORT: String(metricsPort),
    AUTH_RATE_LIMIT_OTP: '1000',
    // Each request names its own address, so that the per-address limits can be told apart.
    TRUST_PROXY: 'true',
    HEAVY_THREADS: '1',
    // One task at a time, one more waiting per kind.
    HEAVY_QUEUE: '1',
    RENDERS_PER_MINUTE: '3',
    PHOTO_UPLOADS_PER_HOUR: '2',
  });
});
afterAll(async () => {
  await api.close();
});

/** Image and card tasks waiting for a place now, as `/metrics` tells an operator. */
async function heavyTasksWaiting(): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  return Number(/^lampstand_heavy_tasks\{state="waiting"\} (\d+)/m.exec(text)?.[1] ?? Number.NaN);
}

let addresses = 0;
/** An address no request has come from yet. */
const newAddress = (): string => `198.51.100.${String(++addresses)}`;

let days = 0;
/** A day no card has been drawn for yet in this file. */
function newDay(): string {
  days += 1;
  return new Date(Date.UTC(2010, 0, 1) + days * 86_400_000).toISOString().slice(0, 10);
}

async function get(
  pathname: string,
  address: string,
  headers: Record<string, string> = {},
): Promise<{ response: Response; body: Buffer }> {
  const response = await fetch(`${api.url}${pathname}`, { headers: { 'x-forwarded-for': address, ...headers } });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

function upload(member: SignedUpMember, body: Buffer): Promise<Response> {
  return fetch(`${api.url}/api/photo`, {
    method: 'PUT',
    headers: {
      'content-type': 'image/png',
      authorization: `Bearer ${member.session.accessToken}`,
      'x-forwarded-for': newAddress(),
    },
    body: new Uint8Array(body),
  });
}

async function storedVersion(member: SignedUpMember): Promise<string | undefined> {
  const photo = await api.dataSource.getRepository(PhotoRecord).findOneBy({ uid: member.member.user.uid });
  return photo?.version;
}

describe('share images', () => {
  it('are drawn once per content and kept: the same bytes again, a year for a dated card, 304 for its ETag', async () => {
    const address = newAddress();
    const day = newDay();
    const first = await get(`/share/verse-of-the-day/${day}.png`, address);
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await sharp(first.body).metadata()).toMatchObject({ format: 'png', width: 1200, height: 630 });
    const etag = first.response.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]{22}"$/);

    // Kept: asked for again (more often than the address may have new cards drawn), the same card.
    for (let index = 0; index < 4; index++) {
      const again = await get(`/share/verse-of-the-day/${day}.png`, address);
      expect(again.response.status).toBe(200);
      expect(again.response.headers.get('etag')).toBe(etag);
      expect(again.body.equals(first.body)).toBe(true);
    }
    const held = await get(`/share/verse-of-the-day/${day}.png`, address, { 'if-none-match': `W/"other", ${etag}` });
    expect(held.response.status).toBe(304);
    expect(held.body.length).toBe(0);
  });

  it('are drawn for one address a few a minute: past that 429 with Retry-After, kept ones still served', async () => {
    const address = newAddress();
    const drawn = newDay();
    for (const day of [drawn, newDay(), newDay()]) {
      expect((await get(`/share/verse-of-the-day/${day}.png`, address)).response.status).toBe(200);
    }
    const storm = newDay();
    const limited = await get(`/share/verse-of-the-day/${storm}.png`, address);
    expect(limited.response.status).toBe(429);
    expect(Number(limited.response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(limited.body.toString())).toMatchObject({ code: 'RATE_LIMITED' });
    expect(limited.response.headers.get('etag')).toBeNull();

    // What is kept costs nothing, and another address is not held back by this one.
    expect((await get(`/share/verse-of-the-day/${drawn}.png`, address)).response.status).toBe(200);
    expect((await get(`/share/verse-of-the-day/${storm}.png`, newAddress())).response.status).toBe(200);
  });

  it("are limited per IPv6 /64: walking through one network's addresses does not draw more", async () => {
    for (const host of ['::1', ':a:b:c:d', ':ffff:1:2:3']) {
      expect((await get(`/share/verse-of-the-day/${newDay()}.png`, `2001:db8:27:1${host}`)).response.status).toBe(200);
    }
    const limited = await get(`/share/verse-of-the-day/${newDay()}.png`, '2001:db8:27:1::99');
    expect(limited.response.status).toBe(429);
    expect(JSON.parse(limited.body.toString())).toMatchObject({ code: 'RATE_LIMITED' });
    // The next /64 is another subscriber.
    expect((await get(`/share/verse-of-the-day/${newDay()}.png`, '2001:db8:27:2::1')).response.status).toBe(200);
  });

  it('answer 503 with Retry-After when the server is full of drawing, and are drawn when asked again', async () => {
    const requested = Array.from({ length: 6 }, () => newDay());
    const answers = await Promise.all(requested.map((day) => get(`/share/verse-of-the-day/${day}.png`, newAddress())));
    const statuses = answers.map(({ response }) => response.status);
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    expect(statuses).toContain(200);
    expect(statuses).toContain(503);
    for (const [index, { response, body }] of answers.entries()) {
      if (response.status !== 503) continue;
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(JSON.parse(body.toString())).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      const later = await get(`/share/verse-of-the-day/${requested[index] ?? ''}.png`, newAddress());
      expect(later.response.status).toBe(200);
    }
  });

  it("include the page's QR code, kept with an ETag", async () => {
    const member = await signUpMember(api);
    const path = `/share/${member.member.profile.username}/qr.png`;
    const first = await get(path, newAddress());
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get('cache-control')).toBe('public, max-age=86400');
    const etag = first.response.headers.get('etag') ?? '';
    const again = await get(path, newAddress(), { 'if-none-match': etag });
    expect(again.response.status).toBe(304);
  });
});

describe('photo uploads', () => {
  it('are limited per member per hour: past it 429 with Retry-After, and the photo stays', async () => {
    const member = await signUpMember(api);
    for (const side of [300, 301]) expect((await upload(member, await pngImage(side, side))).status).toBe(200);
    const kept = await storedVersion(member);
    const refused = await upload(member, await pngImage(302, 302));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ code: 'RATE_LIMITED', reason: 'too_many_uploads' });
    expect(await storedVersion(member)).toBe(kept);
    // Another member is not held back.
    expect((await upload(await signUpMember(api), await pngImage(300, 300))).status).toBe(200);
  });

  it('refuse a PNG too heavy to decode (16 bits per sample, 128 MB of pixels) with a coded error', async () => {
    const member = await signUpMember(api);
    const refused = await upload(member, await png16(4000));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'BAD_USER_INPUT', field: 'photo', reason: 'too_heavy' });
    expect(await storedVersion(member)).toBeUndefined();
  });

  it('are not put off by a flood of new cards: drawing has a queue of its own', async () => {
    const member = await signUpMember(api);
    // More new cards than the drawing lane holds (one drawing, one waiting): some get 503, and the
    // upload, in a lane of its own, takes the next place.
    const cards = Array.from({ length: 4 }, () => get(`/share/verse-of-the-day/${newDay()}.png`, newAddress()));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const answer = await upload(member, await pngImage(310, 310));
    const statuses = (await Promise.all(cards)).map(({ response }) => response.status);
    expect(statuses).toContain(503);
    expect(answer.status).toBe(200);
    expect(await storedVersion(member)).toBeDefined();
  });

  it('are put off with 503 and Retry-After while other uploads fill their queue, and nothing changes', async () => {
    let busy: Response | undefined;
    for (let attempt = 0; attempt < 5 && !busy; attempt++) {
      const [first, second, member] = [await signUpMember(api), await signUpMember(api), await signUpMember(api)];
      const [photo, large] = [await pngImage(320, 320), await pngImage(2400, 2400)];
      // Two large photos take the one place for decoding and the one place waiting; the next
      // upload comes once the server says one waits (the first may end meanwhile: then it is let in).
      const ahead = [upload(first, large), upload(second, large)];
      const settled = { ahead: false };
      void Promise.all(ahead).then(() => (settled.ahead = true));
      while (!settled.ahead && (await heavyTasksWaiting()) < 1) await new Promise((resolve) => setImmediate(resolve));
      const answer = await upload(member, photo);
      await Promise.all(ahead);
      if (answer.status === 503) {
        busy = answer;
        expect(await storedVersion(member)).toBeUndefined();
        // Put off is not counted: the member's two uploads this hour are still theirs.
        for (const side of [300, 301]) expect((await upload(member, await pngImage(side, side))).status).toBe(200);
      } else {
        expect(answer.status).toBe(200);
      }
    }
    expect(busy?.status).toBe(503);
    expect(Number(busy?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await busy?.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', reason: 'busy' });
  });
});
