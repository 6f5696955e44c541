import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_PHOTO_BYTES, PhotoRejected, processPhoto } from '../../../server/src/photos/photo.pipeline.js';
import { HEAVY_NICENESS } from '../../../server/src/work/thread-priority.js';
import { CAMERA_EXIF, jpegWithExif, png16, pngBomb, pngImage } from '../../support/images.js';

async function rejection(upload: Buffer): Promise<string> {
  const error: unknown = await processPhoto(upload).then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(PhotoRejected);
  return (error as PhotoRejected).reason;
}

describe('the photo pipeline', () => {
  it('turns a PNG into a 256 px square WebP', async () => {
    const { webp } = await processPhoto(await pngImage(640, 480));
    const metadata = await sharp(webp).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 256, height: 256 });
  });

  it('keeps nothing of a JPEG’s EXIF', async () => {
    const jpeg = await jpegWithExif();
    // The camera's words are really in the upload…
    expect(jpeg.includes(CAMERA_EXIF.Model)).toBe(true);
    const { webp } = await processPhoto(jpeg);
    const metadata = await sharp(webp).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 256, height: 256 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.icc).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    // …and nowhere in what is kept.
    for (const value of Object.values(CAMERA_EXIF)) expect(webp.includes(value)).toBe(false);
  });

  it('names each photo by its content', async () => {
    const png = await pngImage(300, 300);
    const first = await processPhoto(png);
    expect((await processPhoto(png)).version).toBe(first.version);
    expect((await processPhoto(await pngImage(301, 300))).version).not.toBe(first.version);
    expect(first.version).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });

  it('refuses a file that is not an image', async () => {
    expect(await rejection(Buffer.from('%PDF-1.7\nnot a photo at all\n'))).toBe('not_an_image');
    expect(await rejection(Buffer.alloc(0))).toBe('empty');
  });

  it('refuses an image in a format people do not upload as photos', async () => {
    const gif = await sharp(await pngImage(20, 20))
      .gif()
      .toBuffer();
    expect(await rejection(gif)).toBe('unsupported_format');
  });

  it('refuses a decompression bomb before decoding it', async () => {
    const bomb = pngBomb(8000);
    expect(bomb.length).toBeLessThan(200_000);
    expect(await rejection(bomb)).toBe('too_many_pixels');
  });

  it('refuses a PNG too heavy to decode (4,000² at 16 bits, 128 MB of pixels) from its header', async () => {
    const heavy = await png16(4000);
    expect(heavy.length).toBeLessThan(MAX_PHOTO_BYTES);
    expect(await rejection(heavy)).toBe('too_heavy');
  });

  it('takes a PNG of 16 bits per sample that is light enough', async () => {
    const { webp } = await processPhoto(await png16(600));
    expect(await sharp(webp).metadata()).toMatchObject({ format: 'webp', width: 256, height: 256 });
  });

  it('refuses a file over 5 MB', async () => {
    const big = Buffer.concat([await pngImage(64, 64), Buffer.alloc(MAX_PHOTO_BYTES)]);
    expect(await rejection(big)).toBe('too_large');
  });

  it('refuses an image whose data is cut short', async () => {
    const png = await pngImage(400, 400);
    expect(await rejection(png.subarray(0, Math.floor(png.length / 2)))).toBe('not_an_image');
  });

  it.runIf(process.platform === 'linux')('decodes in threads that give way to the rest of the server', async () => {
    await processPhoto(await pngImage(2000, 1500));
    const libvips = readdirSync('/proc/self/task')
      .map(Number)
      .filter((thread) => readFileSync(`/proc/self/task/${thread}/comm`, 'utf8').trim() === 'libvips worker');
    expect(libvips.length).toBeGreaterThan(0);
    const own = getPriority();
    for (const thread of libvips) expect(getPriority(thread)).toBe(Math.min(19, own + HEAVY_NICENESS));
  });
});
