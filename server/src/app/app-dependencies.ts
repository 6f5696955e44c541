import type { DataSource } from 'typeorm';
import type { AnswerCache } from '../graphql/answer-cache.js';
import type { Context } from '../graphql/context.js';
import type { Identity } from '../identity/identity.module.js';
import type { FeatureOptions } from '../kernel/feature-module.js';
import type { Billing } from '../billing/billing.module.js';
import type { VerseMailService } from '../verse-mail/verse-mail.service.js';
import type { OperatorDeps } from '../operator/operator-context.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The GraphQL context of this request, once built (see `contextOf`). */
    graphqlContext: Promise<Context> | null;
  }
  interface FastifyInstance {
    identity: Identity;
    billing: Billing;
    verseMail: VerseMailService;
    /** The public answer cache (app/public-answers.ts), when this server keeps answers; features' routes keep theirs in it. */
    publicAnswers: AnswerCache | null;
    /** What `npm run admin` works with (server/src/operator/). */
    operator: OperatorDeps;
  }
}

/**
 * What tests and commands may hand the app instead of the defaults: the features' own seams
 * (`FeatureOptions`: a seeded username draw, a wrapped identity fetch, more account lifecycle
 * hooks, a clock) and these.
 */
export interface AppDependencies extends FeatureOptions {
  /** An open, migrated data source to use instead of opening the configured database. */
  dataSource?: DataSource;
  /** Where log lines (pino's JSON, one per line) go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /**
   * Start the background work once listening (account reconciliation, billing catalog sync and
   * maintenance, pruning of expired identity tokens); default true. Commands that run the app briefly turn it off.
   */
  background?: boolean;
}
