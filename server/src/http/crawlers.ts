import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { matchesEtag, strongEtag } from './answer-headers.js';
import { escapeHtml } from './html.js';

/** Member pages per sitemap file: well under the protocol's 50,000 URLs and 50 MB. */
export const SITEMAP_PAGE_SIZE = 10_000;
/** Crawlers read these at most about daily; an hour keeps a new page's wait short. */
const CRAWLER_FILE_CACHE = 'public, max-age=3600';

/**
 * Pages of the web app that belong to a signed-in member or to signing in (web/src/app/routes.tsx):
 * nothing for a search engine. The home page, `/verse`, `/plus`, `/playground` and members'
 * `/@username` pages stay open.
 */
export const PRIVATE_APP_PAGES: readonly string[] = [
  '/signup',
  '/login',
  '/forgot-password',
  '/reset-password',
  '/email-confirmed',
  '/welcome',
  '/profile',
  '/account',
  '/stats',
  '/prayer-requests',
  '/saved',
];

/** The open pages of the app besides members' pages, listed in `/sitemaps/site.xml`. */
const OPEN_PAGES = ['/', '/verse', '/playground'];

/**
 * API and service paths no crawler should walk: GraphQL and the identity service, webhooks,
 * counted link redirects and mail links. Share cards (`/share/`) stay open: link previews (some of
 * which obey robots.txt) load them.
 */
const SERVICE_PATHS = ['/graphql', '/auth/', '/api/', '/webhooks/', '/l/', '/verse-mail/'];

/** A public page, as a sitemap lists it. */
export interface SitemapPage {
  username: string;
  updatedAt: Date;
}

export interface CrawlerOptions {
  /** The address people use: sitemaps list absolute URLs. */
  publicUrl: string;
  /** How many member pages visitors may see now. */
  countPages: () => Promise<number>;
  /** Up to `limit` of them from `offset`, in a stable order. */
  listPages: (offset: number, limit: number) => Promise<SitemapPage[]>;
  /** Member pages per sitemap file (tests make it small). */
  pageSize?: number;
}

/** `robots.txt`: every public page open, the member's own pages and the APIs closed, and the sitemap. */
export function robotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...[...SERVICE_PATHS, ...PRIVATE_APP_PAGES].map((prefix) => `Disallow: ${prefix}`),
    '',
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

function urlEntry(loc: string, lastmod?: Date): string {
  const modified = lastmod ? `<lastmod>${lastmod.toISOString().slice(0, 10)}</lastmod>` : '';
  return `  <url><loc>${escapeHtml(loc)}</loc>${modified}</url>`;
}

function urlSet(entries: string[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries,
    '</urlset>',
    '',
  ].join('\n');
}

/** Sends `body` as `type` with a strong ETag, or 304 when the caller holds it. */
function sendCacheable(request: FastifyRequest, reply: FastifyReply, type: string, body: string): FastifyReply {
  const etag = strongEtag(body, type);
  void reply.type(type).header('cache-control', CRAWLER_FILE_CACHE).header('etag', etag);
  if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.send(body);
}

/**
 * `/robots.txt`, and the sitemap: `/sitemap.xml` is an index of `/sitemaps/site.xml` (the home page
 * and the other open pages) and `/sitemaps/members-<n>.xml`, each listing up to `pageSize` member
 * pages that visitors may see (not private, hidden, held, banned or being deleted), by username.
 */
export function registerCrawlerRoutes(app: FastifyInstance, options: CrawlerOptions): void {
  const { publicUrl } = options;
  const pageSize = options.pageSize ?? SITEMAP_PAGE_SIZE;
  const robots = robotsTxt(publicUrl);
  const pageCount = async () => Math.max(1, Math.ceil((await options.countPages()) / pageSize));

  app.get('/robots.txt', (request, reply) => sendCacheable(request, reply, 'text/plain; charset=utf-8', robots));

  app.get('/sitemap.xml', async (request, reply) => {
    const files = ['site', ...Array.from({ length: await pageCount() }, (_, index) => `members-${String(index + 1)}`)];
    const body = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ...files.map((file) => `  <sitemap><loc>${escapeHtml(`${publicUrl}/sitemaps/${file}.xml`)}</loc></sitemap>`),
      '</sitemapindex>',
      '',
    ].join('\n');
    return sendCacheable(request, reply, 'application/xml; charset=utf-8', body);
  });

  app.get('/sitemaps/site.xml', (request, reply) =>
    sendCacheable(
      request,
      reply,
      'application/xml; charset=utf-8',
      urlSet(OPEN_PAGES.map((page) => urlEntry(`${publicUrl}${page}`))),
    ),
  );

  app.get<{ Params: { file: string } }>('/sitemaps/:file', async (request, reply) => {
    const number = /^members-([1-9]\d{0,5})\.xml$/.exec(request.params.file)?.[1];
    if (number === undefined || Number(number) > (await pageCount())) {
      return reply.code(404).send({ error: 'Not Found', message: 'No such sitemap' });
    }
    const pages = await options.listPages((Number(number) - 1) * pageSize, pageSize);
    const entries = pages.map((page) => urlEntry(`${publicUrl}/@${encodeURIComponent(page.username)}`, page.updatedAt));
    return sendCacheable(request, reply, 'application/xml; charset=utf-8', urlSet(entries));
  });
}
