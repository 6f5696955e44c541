// What the built web app sends: its public page's GraphQL request, read from Chromium as a visitor's
// first load of `/@username` makes it, so that the load sends what visitors send.
import { chromium } from 'playwright-core';

export interface AppRequest {
  /** The request's body, byte for byte. */
  body: string;
  /** Its content type and accept headers (the ones that choose how the server answers). */
  headers: Record<string, string>;
}

/** The headers of a captured request the load sends again; the rest are the browser's own. */
const KEPT_HEADERS = ['content-type', 'accept'] as const;

/**
 * The GraphQL requests a first visit to `${base}/@${username}` makes, in Debian's Chromium
 * (`CHROMIUM_PATH` to change it), headless as the browser tests launch it, after the page shows
 * the profile's name.
 */
export async function publicPageRequests(base: string, username: string, name: string): Promise<AppRequest[]> {
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
    const requests: AppRequest[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname !== '/graphql') return;
      const all = request.headers();
      const headers = Object.fromEntries(
        KEPT_HEADERS.flatMap((header) => (all[header] === undefined ? [] : [[header, all[header]]])),
      );
      requests.push({ body: request.postData() ?? '', headers });
    });
    await page.goto(`${base}/@${username}`);
    await page.getByRole('heading', { level: 1, name }).waitFor();
    return requests;
  } finally {
    await browser.close();
  }
}

/**
 * The public page's request for any username, made from the one the app sent for `sample`: its
 * JSON again, `variables.username` changed, every other byte as the app wrote it.
 */
export function profilePageRequests(sample: AppRequest): (username: string) => string {
  const parsed = JSON.parse(sample.body) as { variables?: Record<string, unknown> };
  if (typeof parsed.variables?.username !== 'string') {
    throw new Error(`the public page's request names no username: ${sample.body}`);
  }
  return (username) => JSON.stringify({ ...parsed, variables: { ...parsed.variables, username } });
}
