import { resolver } from '../kernel/feature-module.js';
import type { FeatureModule } from '../kernel/feature-module.js';
import type { RandomSource } from '../profiles/username.js';
import { AccountChangeService } from './account-change.service.js';
import { AccountResolver } from './account.resolver.js';
import { AccountService } from './account.service.js';
import { EmailLinkResolver } from './email-link.resolver.js';
import { MemberRecords } from './member-records.js';
import { MemberResolver } from './member.resolver.js';
import { MfaResolver } from './mfa.resolver.js';
import { MfaService } from './mfa.service.js';
import { PasswordResolver } from './password.resolver.js';
import { AccountReconciler } from './reconciler.js';
import { SessionResolver } from './session.resolver.js';
import { SignInLimits } from './sign-in-limits.js';

declare module '../kernel/feature-module.js' {
  interface Services {
    records: MemberRecords;
    accounts: AccountService;
    accountChanges: AccountChangeService;
    reconciler: AccountReconciler;
  }
  interface FeatureOptions {
    /** The random source usernames are drawn from (tests pass a seeded one). */
    random?: RandomSource;
  }
}

/** How often accounts are reconciled with the identity service after the pass at start. */
const RECONCILE_INTERVAL_MS = 60 * 60 * 1000;

/** Sign-up, sessions, passwords, two-factor sign-in, and the member records behind an account. */
export const accountsModule: FeatureModule = {
  name: 'accounts',
  build: ({ config, dataSource, log, options, live }, { identity, verses, accountLifecycle }) => {
    const records = new MemberRecords(dataSource, identity.client, verses, accountLifecycle, {
      random: options.random,
      log,
    });
    const accountOptions = {
      siteUrl: config.publicUrl,
      limits: SignInLimits.create(config.auth.rateLimits, identity.redis),
      sessionsEnded: (uid: string) => {
        live.publish('sessionsEnded', uid, {});
      },
    };
    const accounts = new AccountService(identity.client, records, accountOptions);
    return {
      records,
      accounts,
      accountChanges: new AccountChangeService(identity.client, records, accounts, accountLifecycle, accountOptions),
      reconciler: new AccountReconciler(dataSource, identity.client, records, log),
    };
  },
  resolvers: [
    resolver(SessionResolver, ({ accounts }) => new SessionResolver(accounts)),
    resolver(EmailLinkResolver, ({ accounts }) => new EmailLinkResolver(accounts)),
    resolver(PasswordResolver, ({ accountChanges }) => new PasswordResolver(accountChanges)),
    resolver(AccountResolver, ({ accountChanges }) => new AccountResolver(accountChanges)),
    resolver(MemberResolver, () => new MemberResolver()),
    resolver(MfaResolver, ({ identity, accounts }) => new MfaResolver(new MfaService(identity.client, accounts))),
  ],
  // At start (once listening) and hourly across every instance: repairs what a crash or an outage
  // left between accounts and the identity service.
  jobs: ({ reconciler }, { config, log }) =>
    config.reconcile.onStart
      ? [
          {
            name: 'reconcile-accounts',
            intervalMs: RECONCILE_INTERVAL_MS,
            run: async () => {
              const report = await reconciler.reconcile(config.reconcile.graceSeconds * 1000);
              if (report.created + report.deleted + report.failed > 0) {
                log.warn(report, 'accounts reconciled with the identity service');
              }
            },
          },
        ]
      : [],
};
