import { crc32, createDeflate, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** A photo-like PNG: a colour gradient of `width`×`height`, made here rather than kept as a file. */
export function pngImage(width = 640, height = 480): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      pixels[at] = (x * 255) / width;
      pixels[at + 1] = (y * 255) / height;
      pixels[at + 2] = 128;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** What the camera wrote into `jpegWithExif`: none of it may survive an upload. */
export const CAMERA_EXIF = { Make: 'Lampstand Camera Co', Model: 'Secret Model 7', Copyright: 'Grace Hopper' };

/** A JPEG carrying EXIF (camera make, model, owner), as phones write them. */
export async function jpegWithExif(width = 800, height = 600): Promise<Buffer> {
  return sharp(await pngImage(width, height))
    .withExif({ IFD0: CAMERA_EXIF })
    .jpeg({ quality: 90 })
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a valid grey PNG of `side`×`side` pixels, all black, whose compressed
 * rows take about a thousandth of what they decode to (8,000² is 64 MB of pixels in ~65 KB).
 */
export function pngBomb(side = 8000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const rows = deflateSync(Buffer.alloc((side + 1) * side), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', rows),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A PNG that is small on the wire but heavy to decode: `side`×`side` RGBA at 16 bits per sample
 * (7,000² is 392 MB of pixels in about 0.4 MB), as a scanner or an image editor may export. Its
 * rows are written with PNG's "up" filter after the first, so the file is valid and decodes to a
 * plain colour; it is made row by row, never whole in memory.
 */
export async function png16(side = 7000): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 16; // bit depth
  header[9] = 6; // RGBA
  const deflate = createDeflate({ level: 6 });
  const parts: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => parts.push(chunk));
  const done = new Promise((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  const first = Buffer.alloc(1 + side * 8, 0x80);
  first[0] = 0; // no filter: one row of a mid-grey, half-opaque colour
  const up = Buffer.alloc(1 + side * 8);
  up[0] = 2; // "up": each further row is the one above it
  deflate.write(first);
  for (let row = 1; row < side; row++) {
    if (!deflate.write(up)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', Buffer.concat(parts)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
