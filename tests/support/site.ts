// The set-up the browser tests that follow mail share: the built site on a test app that sends its
// mail to an SMTP listener, and a browser to use it.
import { afterAll, beforeAll, inject } from 'vitest';
import type { TestApp } from './app.js';
import { startTestApp } from './app.js';
import type { TestBrowser } from './browser.js';
import { launchBrowser } from './browser.js';
import type { SmtpListener } from './smtp.js';
import { startSmtpListener } from './smtp.js';

export interface MailingSite {
  api: TestApp;
  smtp: SmtpListener;
  browser: TestBrowser;
}

/**
 * Starts the site, its SMTP listener and a browser before the file's tests and closes them after
 * (`env` adds to the app's settings). Call at the top of the file; read the fields in the tests.
 */
export function mailingSite(env: Record<string, string> = {}): MailingSite {
  let started: MailingSite | undefined;
  const get = (): MailingSite => {
    if (!started) throw new Error('The site starts before the tests (beforeAll): read it inside them.');
    return started;
  };
  beforeAll(async () => {
    const smtp = await startSmtpListener();
    const api = await startTestApp({ WEB_DIST_DIR: inject('webDistDir'), SMTP_URL: smtp.url, ...env });
    started = { smtp, api, browser: await launchBrowser() };
  });
  afterAll(async () => {
    if (!started) return;
    await started.browser.close();
    await started.api.close();
    await started.smtp.close();
  });
  return {
    get api() {
      return get().api;
    },
    get smtp() {
      return get().smtp;
    },
    get browser() {
      return get().browser;
    },
  };
}
