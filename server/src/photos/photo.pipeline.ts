import { createHash } from 'node:crypto';
import type Sharp from 'sharp';
import { lowerPriorityOfThreads } from '../work/thread-priority.js';

/** The largest upload taken, in bytes. */
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;

/** The side of the square every photo becomes. */
export const PHOTO_SIZE = 256;

/**
 * The most pixels an upload may decode to (a 48-megapixel phone photo passes): a small file that
 * claims more is a decompression bomb, refused before it is decoded.
 */
export const MAX_PHOTO_PIXELS = 50_000_000;

/**
 * The most memory a PNG or WebP may decode to (width × height × channels × bytes per sample):
 * about 33 megapixels of 8-bit colour, or 8 of 16-bit colour with alpha. Unlike a JPEG, which
 * libvips decodes at an eighth of its size when the photo is to become small, these are decoded
 * whole, and their cost grows with every byte: a 0.6 MB file of 7000×7000 pixels at 16 bits is
 * 392 MB and seconds of a core. Refused from the header alone, before any decoding.
 */
export const MAX_DECODED_BYTES = 100 * 1024 * 1024;

const ACCEPTED_FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp']);

/** Bytes per sample of libvips' band formats. */
const SAMPLE_BYTES: Record<string, number> = { uchar: 1, char: 1, ushort: 2, short: 2, uint: 4, int: 4, float: 4 };

/** What libvips names the threads it works in (Linux shows it as their `comm`). */
const LIBVIPS_THREADS = 'libvips worker';

let loading: Promise<typeof Sharp> | undefined;

/** sharp (libvips), loaded at the first upload rather than at start (start-up time, quality.md P9). */
function loadSharp(): Promise<typeof Sharp> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    // libvips' operation cache would keep decoded uploads in memory between requests.
    sharp.cache(false);
    // One libvips thread per image: the heavy-work bound (work/capacity.ts) then is a bound on
    // cores too, and libuv's threads, which argon2 needs for sign-ins, are never all taken.
    sharp.concurrency(1);
    return sharp;
  });
  return loading;
}

/** Why an upload was refused; each has its own words for people (web/src/features/editor/PhotoPicker.tsx). */
export type PhotoRejection =
  'empty' | 'too_large' | 'not_an_image' | 'unsupported_format' | 'too_many_pixels' | 'too_heavy';

export class PhotoRejected extends Error {
  constructor(
    readonly reason: PhotoRejection,
    message: string,
  ) {
    super(message);
    this.name = 'PhotoRejected';
  }
}

/** A photo ready to store: the WebP bytes and the version that names them. */
export interface ProcessedPhoto {
  webp: Buffer;
  version: string;
}

/**
 * Decodes an upload (JPEG, PNG or WebP, at most `MAX_PHOTO_BYTES` and `MAX_PHOTO_PIXELS`), turns it
 * upright by its EXIF orientation, crops it to the centre square and re-encodes it as a
 * `PHOTO_SIZE` px WebP. Nothing of the original's metadata (EXIF, GPS, ICC, XMP) is kept; only
 * pixels are. Anything else is a `PhotoRejected`.
 */
export async function processPhoto(upload: Buffer): Promise<ProcessedPhoto> {
  if (upload.length === 0) throw new PhotoRejected('empty', 'The file is empty.');
  if (upload.length > MAX_PHOTO_BYTES) throw new PhotoRejected('too_large', 'A photo can be at most 5 MB.');
  const sharp = await loadSharp();
  let format: string | undefined;
  let pixels: number;
  let decodedBytes: number;
  try {
    const metadata = await sharp(upload).metadata();
    format = metadata.format;
    pixels = metadata.width * metadata.height;
    decodedBytes = pixels * metadata.channels * (SAMPLE_BYTES[metadata.depth] ?? 8);
  } catch {
    throw new PhotoRejected('not_an_image', 'The file is not an image.');
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) {
    throw new PhotoRejected('unsupported_format', 'A photo must be a JPEG, PNG or WebP image.');
  }
  if (pixels > MAX_PHOTO_PIXELS) {
    throw new PhotoRejected('too_many_pixels', 'The image has too many pixels (at most 50 megapixels).');
  }
  if (format !== 'jpeg' && decodedBytes > MAX_DECODED_BYTES) {
    throw new PhotoRejected(
      'too_heavy',
      'The image is too heavy to read (a very large PNG or WebP, or one of 16 bits per colour). A JPEG, or a smaller image, works.',
    );
  }
  let webp: Buffer;
  try {
    // Read top to bottom once, so that libvips streams the image rather than keeping it whole.
    webp = await sharp(upload, { limitInputPixels: MAX_PHOTO_PIXELS, failOn: 'error', sequentialRead: true })
      .rotate()
      .resize(PHOTO_SIZE, PHOTO_SIZE, { fit: 'cover' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    // A header that reads well over data that does not (a truncated or forged file).
    throw new PhotoRejected('not_an_image', 'The image could not be read.');
  } finally {
    // libvips decodes and encodes in threads of its own, started at the first photo and kept:
    // from then on they give way to sign-ins (libuv's threads) and the event loop.
    lowerPriorityOfThreads(LIBVIPS_THREADS);
  }
  return { webp, version: createHash('sha256').update(webp).digest('base64url').slice(0, 16) };
}

/**
 * A stored photo (WebP) as PNG, for the share card: its drawing (resvg) reads PNG, not WebP. A
 * 256 px square takes a millisecond or two, on libvips' thread, never the event loop.
 */
export async function photoAsPng(webp: Buffer): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(webp, { failOn: 'error' }).png().toBuffer();
}
