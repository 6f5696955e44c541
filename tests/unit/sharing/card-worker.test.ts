import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { WorkerPool, workerFile } from '../../../server/src/work/worker-pool.js';
import { Theme } from '../../../server/src/profiles/appearance.js';
import { CARD_HEIGHT, CARD_WIDTH, cardTree } from '../../../server/src/sharing/card-render.js';
import { card, qr } from '../../../server/src/sharing/card.worker.js';
import type { CardJob } from '../../../server/src/sharing/card.worker.js';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

// The worker pool draws what the event loop drew before, byte for byte: these digests are those of
// the images drawn in the request before the move (satori 0.63.2, resvg-js 2.6.2, Lora 5.3.0, qrcode 1.5.4).
// A deliberate upgrade of one of them, or a change of what a card shows (the translation beside the
// reference was one), changes them; then check the images by eye and update.
describe('the card worker', () => {
  it('draws a card byte for byte as before, a 1200×630 PNG', async () => {
    const png = await card({
      tree: cardTree({
        theme: Theme.sunriseTheme,
        title: 'Dorcas',
        subtitle: '@dorcas',
        verseText: 'In the beginning God created the heaven and the earth.',
        verseRef: 'Genesis 1:1',
        translation: 'KJV',
        photo: null,
      }),
      width: CARD_WIDTH,
      height: CARD_HEIGHT,
    });
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 1200, height: 630 });
    expect(sha256(png)).toBe('fcd6777e65616077e49766d79691b5e939e6692f6dab67b63b6ddf1439ae97aa');
  });

  it("draws the member's photo beside the name, and the verse's translation beside its reference", async () => {
    const green = { r: 0x2a, g: 0x7f, b: 0x62 };
    const photo = await sharp({ create: { width: 256, height: 256, channels: 3, background: green } })
      .png()
      .toBuffer();
    const content = {
      theme: Theme.lightTheme,
      title: 'Dorcas',
      subtitle: '@dorcas',
      verseText: 'In the beginning God created the heaven and the earth.',
      verseRef: 'Genesis 1:1',
      translation: 'WEB',
      photo: 'uid/version',
    };
    const pixelAt = async (png: Uint8Array, x: number, y: number) => {
      const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      const at = (y * info.width + x) * info.channels;
      return { r: data[at], g: data[at + 1], b: data[at + 2] };
    };
    const withPhoto = await card({
      tree: cardTree(content, { photoDataUrl: `data:image/png;base64,${photo.toString('base64')}` }),
      width: CARD_WIDTH,
      height: CARD_HEIGHT,
    });
    // The photo's middle, left of the name (the card's padding is 80 px, the photo 136 px).
    expect(await pixelAt(withPhoto, 148, 124)).toEqual(green);
    const without = await card({ tree: cardTree({ ...content, photo: null }), width: CARD_WIDTH, height: CARD_HEIGHT });
    expect(await pixelAt(without, 148, 124)).not.toEqual(green);
    expect(JSON.stringify(cardTree(content))).toContain('"WEB"');
  });

  it('draws a QR code byte for byte as before', async () => {
    const png = await qr({ url: 'http://127.0.0.1:3000/@dorcas', format: 'png' });
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 512, height: 512 });
    expect(sha256(png)).toBe('7f201957262d20cd23ffc4b53d5229fd93e8c89a934712b9d03daa7d478e934c');
  });

  it('gives back the memory of each card it drew, however many one thread draws', async () => {
    // One thread for all the cards (it is never replaced), as in a flood of new cards.
    const pool = new WorkerPool(1, Number.POSITIVE_INFINITY);
    const file = workerFile(new URL('../../../server/src/sharing/card.worker.ts', import.meta.url).href, 'card.worker');
    const draw = (index: number) =>
      pool.run<Uint8Array>(file, 'card', {
        tree: cardTree({
          theme: Theme.gardenTheme,
          title: `Card ${index}`,
          subtitle: `@card${index}`,
          verseText: `Verse ${index}: in the beginning God created the heaven and the earth.`,
          verseRef: 'Genesis 1:1',
          translation: 'KJV',
          photo: null,
        }),
        width: CARD_WIDTH,
        height: CARD_HEIGHT,
      } satisfies CardJob);
    try {
      for (let index = 0; index < 3; index++) await draw(index);
      const before = process.memoryUsage.rss();
      for (let index = 3; index < 23; index++) await draw(index);
      // Each card's picture is 3 MB of native memory: twenty kept would be ~65 MB.
      expect((process.memoryUsage.rss() - before) / 2 ** 20).toBeLessThan(30);
    } finally {
      await pool.close();
    }
  });
});
