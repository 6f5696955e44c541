import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { chromium } from 'playwright-core';

/** The system Chromium (Debian's `chromium` package); CHROMIUM_PATH overrides it. */
export function chromiumPath(): string {
  const executable = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executable)) {
    throw new Error(
      `The browser tests need Chromium at ${executable}: apt-get install chromium, or set CHROMIUM_PATH.`,
    );
  }
  return executable;
}

export interface TestBrowser {
  browser: Browser;
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** Content-Security-Policy violations the pages of this browser reported so far. */
  cspViolations(): readonly string[];
  /** Closes the browser; fails when any page reported a Content-Security-Policy violation. */
  close(): Promise<void>;
}

/**
 * How long one wait for the page (a locator, a navigation, a click's target) may take before it
 * counts as never: the waits follow the page's own events, and on a busy machine those come late.
 * Playwright's own 30 s is for a machine with cores to spare.
 */
const BROWSER_WAIT_MS = 90_000;

/**
 * Headless Chromium with no background traffic (the test machines have no internet). Playwright
 * gives every launch a fresh temporary profile.
 */
export async function launchBrowser(): Promise<TestBrowser> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const violations: string[] = [];
  return {
    browser,
    async newContext(options) {
      const context = await browser.newContext(options);
      context.setDefaultTimeout(BROWSER_WAIT_MS);
      // Chromium reports every blocked load or script on the console, naming the policy.
      context.on('console', (message) => {
        if (message.type() === 'error' && message.text().includes('Content Security Policy')) {
          violations.push(`${message.location().url}: ${message.text()}`);
        }
      });
      return context;
    },
    cspViolations: () => violations,
    async close() {
      await browser.close();
      if (violations.length > 0) {
        throw new Error(`Pages reported Content-Security-Policy violations:\n${violations.join('\n')}`);
      }
    },
  };
}
