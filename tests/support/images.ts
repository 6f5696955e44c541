import { crc32, deflateSync } from 'node:zlib';
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
