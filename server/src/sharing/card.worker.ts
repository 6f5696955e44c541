// Runs in the worker pool's threads (work/worker-pool.ts), never on the event loop: satori's layout
// and resvg's rasterising of a card, and QR codes. Node runs this file as it is from the sources
// (type stripping), so it imports packages only, never another module of ours.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Lets the thread's event loop turn once. resvg's memory (its 3 MB picture of each card) is freed by
 * finalizers that V8 queues there once it collected their objects; a thread that went from one card
 * to the next without a turn kept every picture until it ended (~100 MB for 30 cards).
 */
const turnOfTheLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A collection of this thread's heap after each card, so that resvg's picture of it is freed: a
 * young-generation one after most cards, and every `FULL_COLLECTION_EVERY` cards a full one that
 * also compacts the heap and gives its emptied pages back (V8's "last resort" flavour). Left to
 * itself, V8 let a card thread's heap grow past 60 MB, most of it satori's garbage (~17 MB is live).
 * A full collection after every card (the previous rounds) kept it at ~36 MB, but V8 marks in
 * helper threads the whole process shares: ~18 ms of CPU per card beside a sign-in's hashing. This way they take about a third
 * less (every fourth card: 40% less, but 7 MB more at the peak; every second: no less), and a
 * process drawing 80 cards in one thread peaks 3–4 MB higher and ends ~9 MB lower.
 */
const FULL_COLLECTION_EVERY = 3;
let cardsSinceFullCollection = 0;

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as (options: {
  type: 'minor' | 'major';
  execution: 'sync';
  flavor?: 'last-resort';
}) => void;

function collectAfterCard(): void {
  cardsSinceFullCollection += 1;
  if (cardsSinceFullCollection < FULL_COLLECTION_EVERY) {
    collect({ type: 'minor', execution: 'sync' });
    return;
  }
  cardsSinceFullCollection = 0;
  collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

type Fonts = { name: string; data: Buffer; weight: 400 | 700; style: 'normal' }[];
let fonts: Fonts | undefined;

/** Lora, shipped in @fontsource/lora (satori reads WOFF, not WOFF2); read once, at the first card. */
function loadFonts(): Fonts {
  if (!fonts) {
    const require = createRequire(import.meta.url);
    const file = (weight: number) =>
      readFileSync(require.resolve(`@fontsource/lora/files/lora-latin-${weight}-normal.woff`));
    fonts = [
      { name: 'Lora', data: file(400), weight: 400, style: 'normal' },
      { name: 'Lora', data: file(700), weight: 700, style: 'normal' },
    ];
  }
  return fonts;
}

export interface CardJob {
  /** A satori element tree (card-render.ts builds it). */
  tree: unknown;
  width: number;
  height: number;
}

/** The card's PNG: satori lays the tree out as SVG, resvg draws it. */
export async function card({ tree, width, height }: CardJob): Promise<Uint8Array> {
  // Loaded at the first card of each thread, not at start: they are large.
  const [{ default: toSvg }, { Resvg }] = await Promise.all([import('satori'), import('@resvg/resvg-js')]);
  const svg = await toSvg(tree as Parameters<typeof toSvg>[0], { width, height, fonts: loadFonts() });
  // The text is already paths (satori draws the glyphs): resvg needs no fonts of the system.
  const png = new Resvg(svg, { fitTo: { mode: 'width', value: width }, font: { loadSystemFonts: false } })
    .render()
    .asPng();
  collectAfterCard();
  await turnOfTheLoop();
  return png;
}

export interface QrJob {
  url: string;
  format: 'svg' | 'png';
}

/** The QR code of `url`: an SVG, or a 512 px PNG. */
export async function qr({ url, format }: QrJob): Promise<Uint8Array> {
  const { default: QRCode } = await import('qrcode');
  const options = { errorCorrectionLevel: 'M' as const, margin: 2 };
  return format === 'svg'
    ? Buffer.from(await QRCode.toString(url, { ...options, type: 'svg' }))
    : QRCode.toBuffer(url, { ...options, type: 'png', width: 512 });
}
