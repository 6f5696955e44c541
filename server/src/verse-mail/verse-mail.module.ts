import { resolver } from '../kernel/feature-module.js';
import type { FeatureModule } from '../kernel/feature-module.js';
import { registerVerseMailRoutes } from './verse-mail-routes.js';
import { VerseMailSendRecord, VerseMailSubscriptionRecord } from './verse-mail.entity.js';
import { VerseMailResolver } from './verse-mail.resolver.js';
import { VerseMailService } from './verse-mail.service.js';

declare module '../kernel/feature-module.js' {
  interface Services {
    verseMail: VerseMailService;
  }
  interface FeatureOptions {
    /** The time the morning verse mail believes it is (tests pass a clock they control). */
    clock?: () => Date;
  }
}

/** How often the morning verse mail looks for members whose hour has come. */
const VERSE_MAIL_INTERVAL_MS = 5 * 60 * 1000;

/** The verse of the day by mail, each morning at the member's hour. */
export const verseMailModule: FeatureModule = {
  name: 'verse-mail',
  entities: [VerseMailSubscriptionRecord, VerseMailSendRecord],
  build: ({ config, dataSource, mailer, log, options }, { verses, identity }) => ({
    verseMail: new VerseMailService({
      dataSource,
      verses,
      identity: identity.client,
      mailer,
      publicUrl: config.publicUrl,
      log,
      clock: options.clock,
    }),
  }),
  resolvers: [resolver(VerseMailResolver, ({ verseMail }) => new VerseMailResolver(verseMail))],
  routes: (server, { verseMail }) => {
    registerVerseMailRoutes(server, verseMail);
  },
  // Every five minutes across every instance: mails the verse of the day to members whose hour has come.
  jobs: ({ verseMail }, { log }) => [
    {
      name: 'verse-mail',
      intervalMs: VERSE_MAIL_INTERVAL_MS,
      run: async () => {
        const report = await verseMail.sendDue();
        if (report.sent + report.failed > 0) log.info(report, 'verse mail: morning verses sent');
      },
    },
  ],
};
