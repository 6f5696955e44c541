import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { DataSource } from 'typeorm';
import type { Config } from '../config.js';
import { projectRoot } from '../config.js';
import { printSortedSchema } from '../graphql/schema.js';
import { registerCrawlerRoutes } from '../http/crawlers.js';
import { registerSchemaRoute } from '../http/schema-route.js';
import { registerWebManifest } from '../http/web-manifest.js';
import { PublicPages } from '../profiles/public-pages.js';

/** The logo the icons are drawn from: the build's copy, or the source's when there is no build. */
function logoSvg(webDistDir: string): string {
  const built = path.join(webDistDir, 'favicon.svg');
  return readFileSync(existsSync(built) ? built : path.join(projectRoot, 'web', 'public', 'favicon.svg'), 'utf8');
}

/** Draws `svg` as a PNG `size` pixels wide; resvg is loaded at the first icon asked for, not at start. */
async function renderPng(svg: string, size: number): Promise<Buffer> {
  const { Resvg } = await import('@resvg/resvg-js');
  return new Resvg(svg, { fitTo: { mode: 'width', value: size }, font: { loadSystemFonts: false } }).render().asPng();
}

/**
 * What third parties and crawlers read besides GraphQL: the published schema (`/schema.graphql`),
 * `robots.txt` and the sitemap of the pages visitors may see, and the web app manifest with its icons.
 */
export function registerPublicRoutes(
  app: FastifyInstance,
  config: Pick<Config, 'publicUrl' | 'webDistDir'>,
  dataSource: DataSource,
  schema: GraphQLSchema,
): void {
  registerSchemaRoute(app, () => printSortedSchema(schema));
  const pages = new PublicPages(dataSource);
  registerCrawlerRoutes(app, {
    publicUrl: config.publicUrl,
    countPages: () => pages.count(),
    listPages: (offset, limit) => pages.list(offset, limit),
  });
  registerWebManifest(app, { logoSvg: logoSvg(config.webDistDir), renderPng });
}
