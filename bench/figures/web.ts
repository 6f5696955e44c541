// P7 and P8: what the web app costs a visitor, its scripts and Lighthouse's scores.
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { routeScripts } from '../../tests/support/bundle.js';
import { seededUsername } from '../seed.js';
import { report, root, round, scratch } from '../support/options.js';
import { startOurs } from '../support/servers.js';

/** The four Lighthouse categories of P8, and the score (0–100) each must reach. */
const LIGHTHOUSE_TARGETS = { performance: 100, accessibility: 100, 'best-practices': 95, seo: 95 } as const;
type LighthouseScores = Record<keyof typeof LIGHTHOUSE_TARGETS, number> & { metrics: string };

/** The metrics behind the performance score, as the note reports them (Lighthouse's audit ids). */
const LIGHTHOUSE_METRICS = [
  ['FCP', 'first-contentful-paint'],
  ['LCP', 'largest-contentful-paint'],
  ['TBT', 'total-blocking-time'],
  ['CLS', 'cumulative-layout-shift'],
] as const;

/**
 * Lighthouse's default (mobile) run on each page, in Debian's Chromium launched as the browser
 * tests launch it. Lighthouse never downloads a browser of its own here.
 */
async function lighthouseScores(urls: string[]): Promise<Map<string, LighthouseScores>> {
  const chrome = await launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    userDataDir: mkdtempSync(path.join(scratch, 'chromium-')),
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const scores = new Map<string, LighthouseScores>();
  try {
    for (const url of urls) scores.set(url, await scoredRun(chrome.port, url));
  } finally {
    chrome.kill();
  }
  return scores;
}

/**
 * One page's scores. A run that ends without a score (Lighthouse's runtime errors such as NO_FCP
 * on a loaded machine) is run again, at most three times in all; after that the bench fails and
 * says why, rather than report a score of 0.
 */
async function scoredRun(port: number, url: string): Promise<LighthouseScores> {
  const failures: string[] = [];
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const result = await lighthouse(url, { port, logLevel: 'error', onlyCategories: Object.keys(LIGHTHOUSE_TARGETS) });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { categories, runtimeError } = result.lhr;
    const ids = Object.keys(LIGHTHOUSE_TARGETS) as (keyof typeof LIGHTHOUSE_TARGETS)[];
    const unscored = ids.filter((id) => typeof categories[id]?.score !== 'number');
    if (unscored.length === 0) {
      const score = (id: keyof typeof LIGHTHOUSE_TARGETS): number => Math.round((categories[id]?.score ?? 0) * 100);
      const metrics = LIGHTHOUSE_METRICS.map(([name, id]) => `${name} ${result.lhr.audits[id]?.displayValue ?? '?'}`);
      return {
        ...Object.fromEntries(ids.map((id) => [id, score(id)])),
        metrics: metrics.join(', '),
      } as LighthouseScores;
    }
    const why = `run ${attempt}: no score for ${unscored.join(', ')} (${runtimeError?.code ?? 'no runtime error'})`;
    failures.push(why);
    console.error(`Lighthouse on ${url}, ${why}`);
  }
  throw new Error(`Lighthouse could not score ${url}: ${failures.join('; ')}`);
}

/** P7: the JavaScript a first visit to /@username loads: the public page's own document (profile.html). */
export function firstVisitScripts(): void {
  const { gzipBytes } = routeScripts(path.join(root, 'web/dist'), [], 'profile.html');
  report({
    id: 'P7',
    label: 'JS for a first visit to /@username, gzip',
    value: round(gzipBytes / 1000, 1),
    unit: ' KB',
    target: '≤ 50 KB',
    pass: gzipBytes <= 50_000,
  });
}

/** P8: Lighthouse (mobile) on the landing page and a member's page, served by the production build. */
export async function lighthouseFigures(mainFile: string): Promise<void> {
  const site = await startOurs({ SQLITE_FILE: mainFile });
  const pages = [`${site.url}/`, `${site.url}/@${seededUsername(1)}`];
  const lighthouseRun = await lighthouseScores(pages).finally(() => site.stop());
  const worst = (id: keyof typeof LIGHTHOUSE_TARGETS): number =>
    Math.min(...[...lighthouseRun.values()].map((scores) => scores[id]));
  const meets = (Object.keys(LIGHTHOUSE_TARGETS) as (keyof typeof LIGHTHOUSE_TARGETS)[]).every(
    (id) => worst(id) >= LIGHTHOUSE_TARGETS[id],
  );
  report({
    id: 'P8',
    label: 'Lighthouse (mobile) performance on / and /@username',
    value: worst('performance'),
    unit: '',
    target: '100 / 100',
    pass: meets,
    note: [...lighthouseRun]
      .map(
        ([url, scores]) =>
          `${new URL(url).pathname}: perf ${scores.performance} (${scores.metrics}), a11y ${scores.accessibility}, best ${scores['best-practices']}, seo ${scores.seo}`,
      )
      .join('; '),
  });
}
