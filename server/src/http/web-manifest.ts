import type { FastifyInstance } from 'fastify';
import { matchesEtag, strongEtag } from './answer-headers.js';

/** The sizes browsers and stores ask for: 192 for the home screen, 512 for the splash screen. */
const ICON_SIZES = [192, 512] as const;
/** Icons change with a release at most; the manifest names them by address, so a day is enough. */
const ICON_CACHE = 'public, max-age=86400';
const MANIFEST_CACHE = 'public, max-age=3600';
/** The logo's colours (web/public/favicon.svg): its ground, and its light. */
const THEME_COLOR = '#1f2a44';
const BACKGROUND_COLOR = '#f7efe0';

export interface ManifestOptions {
  /** The site's logo as SVG (web/public/favicon.svg): the icons are drawn from it. */
  logoSvg: string;
  /** Draws an SVG as a PNG `size` pixels wide (resvg). */
  renderPng: (svg: string, size: number) => Promise<Buffer>;
}

/**
 * The logo for a maskable icon: its ground fills the square (a launcher crops it to its own shape)
 * and the drawing sits within the middle 80%, the safe zone every crop keeps.
 */
export function maskableSvg(logoSvg: string): string {
  const inner = logoSvg.replace(/^<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${THEME_COLOR}"/>` +
    `<g transform="translate(6.4 6.4) scale(0.8)">${inner}</g></svg>`
  );
}

/** The web app manifest: what a phone needs to add Lampstand to its home screen. */
export function webManifest(): Record<string, unknown> {
  return {
    name: 'Lampstand',
    short_name: 'Lampstand',
    description: 'Your page with a Bible verse for every day.',
    id: '/',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    icons: [
      { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
      ...ICON_SIZES.map((size) => ({
        src: `/icon-${String(size)}.png`,
        sizes: `${String(size)}x${String(size)}`,
        type: 'image/png',
        purpose: 'any',
      })),
      { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}

/**
 * `/manifest.webmanifest` and its PNG icons (`/icon-192.png`, `/icon-512.png`,
 * `/icon-maskable-512.png`), drawn from the logo at their first request and kept: one source for the
 * favicon and the icons, nothing to redraw by hand when the logo changes.
 */
export function registerWebManifest(app: FastifyInstance, options: ManifestOptions): void {
  const manifest = JSON.stringify(webManifest());
  const manifestEtag = strongEtag(manifest);
  app.get('/manifest.webmanifest', (request, reply) => {
    void reply
      .type('application/manifest+json; charset=utf-8')
      .header('cache-control', MANIFEST_CACHE)
      .header('etag', manifestEtag);
    if (matchesEtag(request.headers['if-none-match'], manifestEtag)) return reply.code(304).send();
    return reply.send(manifest);
  });

  const sources: [string, string, number][] = [
    ...ICON_SIZES.map((size): [string, string, number] => [`/icon-${String(size)}.png`, options.logoSvg, size]),
    ['/icon-maskable-512.png', maskableSvg(options.logoSvg), 512],
  ];
  for (const [url, svg, size] of sources) {
    let drawn: Promise<{ png: Buffer; etag: string }> | undefined;
    app.get(url, async (request, reply) => {
      if (!drawn) {
        drawn = options.renderPng(svg, size).then((png) => ({ png, etag: strongEtag(png) }));
        // A failed drawing is tried again at the next request.
        drawn.catch(() => {
          drawn = undefined;
        });
      }
      const { png, etag } = await drawn;
      void reply.type('image/png').header('cache-control', ICON_CACHE).header('etag', etag);
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.send(png);
    });
  }
}
