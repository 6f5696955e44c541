// What the built web app sends on a visitor's first load of `/@username`, read from Chromium, so that
// the load sends what visitors send. The page is rendered by the server (app/profile-page.ts): the
// document request is the whole read, and the page makes no GraphQL request of its own.
import { chromium } from 'playwright-core';

export interface AppRequest {
  method: string;
  /** The path asked for (with its query). */
  path: string;
  /** The request's body, byte for byte ('' for a GET). */
  body: string;
  /** Its accept and content type headers (the ones that choose how the server answers). */
  headers: Record<string, string>;
}

/** The headers of a captured request the load sends again; the rest are the browser's own. */
const KEPT_HEADERS = ['content-type', 'accept'] as const;

/** What a first visit asked of the server: the page's document, and any GraphQL requests after it. */
export interface PageVisit {
  document: AppRequest;
  graphql: AppRequest[];
}

/**
 * A first visit to `${base}/@${username}` in Debian's Chromium (`CHROMIUM_PATH` to change it),
 * headless as the browser tests launch it, until the page shows the profile's name and the network
 * is quiet.
 */
export async function publicPageVisit(base: string, username: string, name: string): Promise<PageVisit> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    // A busy machine takes its time; the wait follows the page's own events.
    const context = await browser.newContext({ timezoneId: 'UTC', locale: 'en-US' });
    context.setDefaultTimeout(120_000);
    const page = await context.newPage();
    const documents: AppRequest[] = [];
    const graphql: AppRequest[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin !== new URL(base).origin) return;
      const all = request.headers();
      const made: AppRequest = {
        method: request.method(),
        path: url.pathname + url.search,
        body: request.postData() ?? '',
        headers: Object.fromEntries(
          KEPT_HEADERS.flatMap((header) => (all[header] === undefined ? [] : [[header, all[header]]])),
        ),
      };
      if (request.resourceType() === 'document') documents.push(made);
      else if (url.pathname === '/graphql') graphql.push(made);
    });
    await page.goto(`${base}/@${username}`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1, name }).waitFor();
    const [document] = documents;
    if (documents.length !== 1 || !document) throw new Error(`the visit made ${documents.length} document requests`);
    return { document, graphql };
  } finally {
    await browser.close();
  }
}
