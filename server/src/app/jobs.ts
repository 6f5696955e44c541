import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import type { AccountReconciler } from '../accounts/reconciler.js';
import type { Billing } from '../billing/billing.module.js';
import { scheduleJob } from '../jobs/schedule.js';
import type { VerseMailService } from '../verse-mail/verse-mail.service.js';

/** How often a server with billing reviews grace periods and retries unwritten claims. */
const BILLING_MAINTENANCE_INTERVAL_MS = 10 * 60 * 1000;
/** How often the morning verse mail looks for members whose hour has come. */
const VERSE_MAIL_INTERVAL_MS = 5 * 60 * 1000;
/** How often accounts are reconciled with the identity service after the pass at start. */
const RECONCILE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Once listening: reads the Stripe catalog (products made before the webhook existed); then, once
 * per interval across every instance, ends grace periods that ran out and retries claims the
 * identity service refused (grants made by `npm run plus` too, so this runs without Stripe keys).
 */
export function startBillingUpkeep(app: FastifyInstance, dataSource: DataSource, billing: Billing): void {
  app.addHook('onListen', () => {
    if (billing.enabled) readCatalog(app, billing);
  });
  scheduleJob(app, dataSource, {
    name: 'billing-upkeep',
    intervalMs: BILLING_MAINTENANCE_INTERVAL_MS,
    run: async () => {
      await billing.runMaintenance();
    },
  });
}

/**
 * Once the server answers (embedded identity is reached over HTTP), and hourly across every
 * instance: repairs what a crash or an outage left between accounts and the identity service.
 */
export function startReconciliation(
  app: FastifyInstance,
  dataSource: DataSource,
  reconciler: AccountReconciler,
  graceSeconds: number,
): void {
  scheduleJob(app, dataSource, {
    name: 'reconcile-accounts',
    intervalMs: RECONCILE_INTERVAL_MS,
    run: async () => {
      const report = await reconciler.reconcile(graceSeconds * 1000);
      if (report.created + report.deleted + report.failed > 0) {
        app.log.warn(report, 'accounts reconciled with the identity service');
      }
    },
  });
}

/** Every five minutes across every instance: mails the verse of the day to members whose hour has come. */
export function startVerseMail(app: FastifyInstance, dataSource: DataSource, mail: VerseMailService): void {
  scheduleJob(app, dataSource, {
    name: 'verse-mail',
    intervalMs: VERSE_MAIL_INTERVAL_MS,
    run: async () => {
      const report = await mail.sendDue();
      if (report.sent + report.failed > 0) app.log.info(report, 'verse mail: morning verses sent');
    },
  });
}

function readCatalog(app: FastifyInstance, billing: Billing): void {
  billing
    .syncCatalog()
    .then((prices) => {
      app.log.info({ prices }, 'billing: Stripe catalog read');
    })
    .catch((error: unknown) => {
      app.log.error({ err: error }, 'billing: could not read the Stripe catalog; webhooks will bring it');
    });
}
