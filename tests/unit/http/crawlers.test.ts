import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCrawlerRoutes } from '../../../server/src/http/crawlers.js';

const PAGES = ['amos', 'boaz', 'caleb', 'dinah', 'eli'].map((username) => ({
  username,
  updatedAt: new Date('2026-03-01T10:00:00Z'),
}));
let app: FastifyInstance;
let url: string;

beforeAll(async () => {
  app = Fastify();
  registerCrawlerRoutes(app, {
    publicUrl: 'https://lampstand.example',
    countPages: () => Promise.resolve(PAGES.length),
    listPages: (offset, limit) => Promise.resolve(PAGES.slice(offset, offset + limit)),
    pageSize: 2,
  });
  url = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app.close();
});

describe('a sitemap over several files', () => {
  it('indexes one file per page size of member pages, each listing its share with its date', async () => {
    const index = await (await fetch(`${url}/sitemap.xml`)).text();
    expect(index).toContain('<sitemapindex');
    expect([...index.matchAll(/members-(\d+)\.xml/g)].map((match) => match[1])).toEqual(['1', '2', '3']);
    const third = await (await fetch(`${url}/sitemaps/members-3.xml`)).text();
    expect(third).toContain('<loc>https://lampstand.example/@eli</loc><lastmod>2026-03-01</lastmod>');
    expect(third).not.toContain('@dinah');
    for (const missing of ['members-4.xml', 'members-0.xml', 'members-x.xml', 'other.xml']) {
      expect((await fetch(`${url}/sitemaps/${missing}`)).status, missing).toBe(404);
    }
  });
});
