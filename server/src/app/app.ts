import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import Fastify, { LogController } from 'fastify';
import { pino } from 'pino';
import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import type { Config } from '../config.js';
import { openDatabase, useRequestBusyTimeout } from '../db/data-source.js';
import { createApollo } from '../graphql/apollo.js';
import type { Context } from '../graphql/context.js';
import { registerDrain } from '../http/drain.js';
import { registerErrorHandler } from '../http/error-handler.js';
import { registerHealthRoutes } from '../http/health.js';
import { openQueriesPlugin, registerSecurity, trustedOrigins } from '../http/security.js';
import { sharedServerOptions } from '../http/server-options.js';
import { registerWebApp } from '../http/web.js';
import { Metrics } from '../observability/metrics.js';
import { AccountResolver } from '../accounts/account.resolver.js';
import { AccountService } from '../accounts/account.service.js';
import { MemberRecords } from '../accounts/member-records.js';
import { MemberResolver } from '../accounts/member.resolver.js';
import { AccountReconciler } from '../accounts/reconciler.js';
import { Billing } from '../billing/billing.module.js';
import { BillingResolver } from '../billing/billing.resolver.js';
import { StripeClient } from '../billing/stripe.client.js';
import { registerStripeWebhook } from '../billing/webhook.js';
import { withOperationDeadline } from '../identity/deadline.js';
import { mountIdentity } from '../identity/identity.module.js';
import { LinkResolver, PublicLinkResolver } from '../links/link.resolver.js';
import { registerLinkRoutes } from '../links/link-routes.js';
import { LinkService } from '../links/link.service.js';
import { PageStatsService } from '../links/page-stats.service.js';
import type { AccountLifecycle } from '../members/member-lifecycle.js';
import { ProfileResolver } from '../profiles/profile.resolver.js';
import { ProfileService } from '../profiles/profile.service.js';
import { PublicProfileResolver } from '../profiles/public-profile.resolver.js';
import type { RandomSource } from '../profiles/username.js';
import { VerseRecord } from '../verses/verse.entity.js';
import { VerseResolver } from '../verses/verse.resolver.js';
import { VerseService } from '../verses/verse.service.js';
import { authenticate, createContext } from './context.js';
import { createDataSource } from './data-source.js';
import { startBillingUpkeep, startReconciliation } from './jobs.js';
import { createLoaders } from './loaders.js';
import { buildAppSchema } from './schema.js';

/** Health probes answer many times a minute: their lines stay at debug level. */
const PROBE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

declare module 'fastify' {
  interface FastifyInstance {
    billing: Billing;
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
}

/**
 * The composition root: builds the whole server (database, services, GraphQL, health, background
 * jobs and the web app) and hands each feature what it needs. Used by main.ts
 * and by the tests, which call `inject` or `listen` on the result. Closing the app closes
 * everything it opened.
 */
export async function buildApp(config: Config, dependencies: AppDependencies = {}): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    logger: {
      level: config.logLevel,
      // Asynchronous writes to stdout (lines written while one write is pending go out together;
      // flushed at exit): the default synchronous destination made a write call per request, the
      // largest single cost of a profile read when profiled.
      stream: dependencies.logStream ?? pino.destination({ dest: 1, sync: false }),
    },
    ...sharedServerOptions(config),
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    return503OnClosing: true,
    // Every log line of a request, its answer's `x-request-id` and an error's body carry this id.
    genReqId: () => randomUUID(),
  });
  const security = {
    production: config.env === 'production',
    publicUrl: config.publicUrl,
    corsOrigins: config.corsOrigins,
    tagManager: config.web.gtmContainerId !== undefined,
  };
  await registerSecurity(app, security);
  registerErrorHandler(app);
  registerDrain(app);
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    const entry = {
      method: request.method,
      // The path only: query strings carry secrets (the emailed `/auth/v1/verify?token=…`).
      path: request.url.split('?', 1)[0],
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    if (reply.statusCode >= 500) request.log.error(entry, 'request failed');
    else if (PROBE_PATHS.has(entry.path ?? '')) request.log.debug(entry, 'probe answered');
    else request.log.info(entry, 'request completed');
  });

  const dataSource = dependencies.dataSource ?? (await openDatabase(createDataSource(config.database)));
  if (!dependencies.dataSource) app.addHook('onClose', async () => dataSource.destroy());
  // Migrations ran with the long wait; requests must not freeze the process that long (F1).
  await useRequestBusyTimeout(dataSource);
  const metrics = new Metrics(dataSource);
  app.decorate('metrics', metrics);
  metrics.observeRequests(app);
  if (config.metricsPort !== undefined) metrics.serve(app, config.host, config.metricsPort);

  const background = dependencies.background ?? true;
  const identity = await mountIdentity(app, config, dataSource, {
    fetch: dependencies.identityFetch,
    background,
  });

  const verses = new VerseService(dataSource.getRepository(VerseRecord));
  const profiles = new ProfileService(dataSource, verses);
  const links = new LinkService(dataSource);
  const pageStats = new PageStatsService(dataSource);
  const stripe = StripeClient.fromConfig(config.billing);
  const billing = new Billing(dataSource, identity.client, stripe, {
    publicUrl: config.publicUrl,
    graceDays: config.billing.graceDays,
    log: app.log,
  });
  app.decorate('billing', billing);
  const lifecycle = [billing.closure, ...(dependencies.accountLifecycle ?? [])];
  const records = new MemberRecords(dataSource, identity.client, verses, lifecycle, {
    random: dependencies.random,
    log: app.log,
  });
  const accounts = new AccountService(identity.client, records, lifecycle, { siteUrl: config.publicUrl });
  const reconciler = new AccountReconciler(dataSource, identity.client, records, app.log);
  const resolverInstances = new Map<unknown, object>([
    [VerseResolver, new VerseResolver(verses)],
    [AccountResolver, new AccountResolver(accounts)],
    [MemberResolver, new MemberResolver()],
    [ProfileResolver, new ProfileResolver(profiles)],
    [PublicProfileResolver, new PublicProfileResolver(profiles)],
    [BillingResolver, new BillingResolver(billing.checkout, billing.roles)],
    [LinkResolver, new LinkResolver(links, pageStats)],
    [PublicLinkResolver, new PublicLinkResolver()],
  ]);
  const schema = await buildAppSchema({ get: (resolverClass: unknown) => resolverInstances.get(resolverClass) });

  const apollo = createApollo(app, schema, {
    ...config.graphql,
    production: security.production,
    plugins: [openQueriesPlugin<Context>(trustedOrigins(security)), metrics.graphqlPlugin<Context>()],
  });
  await apollo.start();
  app.addHook('onClose', async () => apollo.stop());
  const graphqlHandler = fastifyApolloHandler<Context>(apollo, {
    context: async (request) =>
      createContext({
        user: await authenticate(request.headers.authorization, identity.verifier),
        loaders: createLoaders(dataSource),
        log: request.log,
        clientIp: request.ip,
      }),
  });
  app.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    // One deadline for all the identity calls of the operation, counted from its arrival.
    handler: function (request, reply) {
      return withOperationDeadline(() => graphqlHandler.call(this, request, reply));
    },
  });

  registerStripeWebhook(app, stripe, billing.sync);
  registerLinkRoutes(app, { links, stats: pageStats });

  if (background) startBillingUpkeep(app, dataSource, billing);

  if (background && config.reconcile.onStart) {
    startReconciliation(app, dataSource, reconciler, config.reconcile.graceSeconds);
  }

  registerHealthRoutes(app, dataSource, identity.redis);
  await registerWebApp(app, {
    distDir: config.webDistDir,
    publicUrl: config.publicUrl,
    gtmContainerId: config.web.gtmContainerId,
    billing: billing.enabled,
    // The same lookup as the `profile` query, for the meta tags of `/@username` pages.
    findProfile: (username) => profiles.findPublic(username, createLoaders(dataSource)),
    countView: (profile) => pageStats.countView(profile.uid),
  });
  return app;
}
