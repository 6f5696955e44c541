import type { DataSource } from 'typeorm';
import type { Context } from '../graphql/context.js';
import type { AccountLifecycle } from '../members/member-lifecycle.js';
import type { Billing } from '../billing/billing.module.js';
import type { VerseMailService } from '../verse-mail/verse-mail.service.js';
import type { OperatorDeps } from '../operator/operator-context.js';
import type { RandomSource } from '../profiles/username.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The GraphQL context of this request, once built (see `contextOf`). */
    graphqlContext: Promise<Context> | null;
  }
  interface FastifyInstance {
    billing: Billing;
    verseMail: VerseMailService;
    /** What `npm run admin` works with (server/src/operator/). */
    operator: OperatorDeps;
  }
}

export interface AppDependencies {
  /** An open, migrated data source to use instead of opening the configured database. */
  dataSource?: DataSource;
  /** The random source usernames are drawn from (tests pass a seeded one). */
  random?: RandomSource;
  /** The HTTP client for identity calls (tests wrap it to inject failures at the HTTP boundary). */
  identityFetch?: typeof fetch;
  /** Where log lines (pino's JSON, one per line) go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /** More account lifecycle hooks (billing adds its own). */
  accountLifecycle?: AccountLifecycle[];
  /**
   * Start the background work once listening (account reconciliation, billing catalog sync and
   * maintenance, pruning of expired identity tokens); default true. Commands that run the app briefly turn it off.
   */
  background?: boolean;
  /** The time the morning verse mail believes it is (tests pass a clock they control). */
  clock?: () => Date;
}
