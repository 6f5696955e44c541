import { resolver } from '../kernel/feature-module.js';
import type { FeatureModule } from '../kernel/feature-module.js';
import { challengeKey, DEFAULT_CHALLENGE_MAX, PrayerChallenges } from './prayer-challenge.js';
import { DEFAULT_PRAYER_LIMITS, PrayerSendLimits } from './prayer-limits.js';
import type { PrayerLimits } from './prayer-limits.js';
import { PrayerNotices } from './prayer-notices.js';
import { prayerEntities } from './prayer.entities.js';
import { PrayerResolver } from './prayer.resolver.js';
import { PrayerService } from './prayer.service.js';
import { prayerSettingsLoaderFactory, PublicPrayerResolver } from './public-prayer.resolver.js';

declare module '../kernel/feature-module.js' {
  interface Services {
    prayer: PrayerService;
    prayerChallenges: PrayerChallenges;
    prayerNotices: PrayerNotices;
  }
  interface FeatureOptions {
    /** Requests per hour per address and per page, replies per member (tests lower or raise them). */
    prayerLimits?: Partial<PrayerLimits>;
    /** The proof of work's highest number (tests make it small). */
    prayerChallengeMax?: number;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The notices and the clean-up, for tests and commands that run them now. */
    prayerNotices: PrayerNotices;
  }
}

declare module '../kernel/live.js' {
  interface LiveTopics {
    /**
     * A request just stored, keyed by the member's uid: its id only, so that its words never travel
     * through Redis and the subscriber reads it as the inbox would.
     */
    prayerRequestReceived: { id: string };
  }
}

/** How often the notices and the clean-up run, across every instance. */
const NOTICE_INTERVAL_MS = 5 * 60_000;
const PRUNE_INTERVAL_MS = 60 * 60_000;

/** Prayer requests: visitors ask a member for prayer; the member reads, prays, replies. */
export const prayerModule: FeatureModule = {
  name: 'prayer',
  entities: prayerEntities,
  build: ({ config, dataSource, mailer, live, log, options }, { profiles, identity }) => {
    const clock = options.clock ?? (() => new Date());
    const challenges = new PrayerChallenges(
      dataSource,
      challengeKey(config),
      options.prayerChallengeMax ?? DEFAULT_CHALLENGE_MAX,
    );
    const limits = new PrayerSendLimits({ ...DEFAULT_PRAYER_LIMITS, ...options.prayerLimits }, identity.redis);
    return {
      prayerChallenges: challenges,
      prayer: new PrayerService({ dataSource, profiles, mailer, live, limits, challenges, clock }),
      prayerNotices: new PrayerNotices({
        dataSource,
        identity: identity.client,
        mailer,
        challenges,
        publicUrl: config.publicUrl,
        log,
        clock,
      }),
    };
  },
  resolvers: [
    resolver(PrayerResolver, ({ prayer }) => new PrayerResolver(prayer)),
    resolver(
      PublicPrayerResolver,
      ({ prayer, prayerChallenges }) => new PublicPrayerResolver(prayer, prayerChallenges),
    ),
  ],
  loaders: (dataSource) => {
    const settings = prayerSettingsLoaderFactory(dataSource);
    return [{ names: ['prayerSettingsByUid'], make: () => ({ prayerSettingsByUid: settings() }) }];
  },
  routes: (server, { prayerNotices }) => {
    server.decorate('prayerNotices', prayerNotices);
  },
  jobs: ({ prayerNotices }, { log }) => [
    {
      // At most one mail an hour per member: each run mails only those whose last notice is an hour old.
      name: 'prayer-notices',
      intervalMs: NOTICE_INTERVAL_MS,
      run: async () => {
        const report = await prayerNotices.sendDue();
        if (report.sent + report.failed > 0) log.info(report, 'prayer requests: notices sent');
      },
    },
    {
      name: 'prayer-retention',
      intervalMs: PRUNE_INTERVAL_MS,
      run: async () => {
        const deleted = await prayerNotices.prune();
        if (deleted > 0) log.info({ deleted }, 'prayer requests: old requests deleted');
      },
    },
  ],
};
