import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import Fastify, { LogController } from 'fastify';
import { pino } from 'pino';
import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import type { Config } from './config.js';
import { createDataSource, openDatabase } from './db/data-source.js';
import { createApollo } from './graphql/apollo.js';
import { createContext } from './graphql/context.js';
import type { Context } from './graphql/context.js';
import { createLoaders } from './graphql/loaders.js';
import { buildGraphQLSchema } from './graphql/schema.js';
import { registerDrain } from './http/drain.js';
import { registerErrorHandler } from './http/error-handler.js';
import { registerHealthRoutes } from './http/health.js';
import { openQueriesPlugin, registerSecurity, trustedOrigins } from './http/security.js';
import { sharedServerOptions } from './http/server-options.js';
import { registerWebApp } from './http/web.js';
import { scheduleJob } from './jobs/schedule.js';
import { Metrics } from './observability/metrics.js';
import { AccountResolver } from './accounts/account.resolver.js';
import type { AccountLifecycle } from './accounts/account.service.js';
import { AccountService } from './accounts/account.service.js';
import { MemberResolver } from './accounts/member.resolver.js';
import type { RandomSource } from './accounts/username.js';
import { BillingResolver } from './billing/billing.resolver.js';
import { BillingService } from './billing/billing.service.js';
import { StripeClient } from './billing/stripe.client.js';
import { registerStripeWebhook } from './billing/webhook.js';
import { authenticate } from './graphql/auth.js';
import { mountIdentity } from './identity/identity.module.js';
import { LinkResolver, PublicLinkResolver } from './links/link.resolver.js';
import { registerLinkRoutes } from './links/link-routes.js';
import { LinkService } from './links/link.service.js';
import { PageStatsService } from './links/page-stats.service.js';
import { ProfileResolver } from './profiles/profile.resolver.js';
import { ProfileService } from './profiles/profile.service.js';
import { PublicProfileResolver } from './profiles/public-profile.resolver.js';
import { VerseRecord } from './verses/verse.entity.js';
import { VerseResolver } from './verses/verse.resolver.js';
import { VerseService } from './verses/verse.service.js';

/** Health probes answer many times a minute: their lines stay at debug level. */
const PROBE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/** How often a server with billing reviews grace periods and retries unwritten claims. */
const BILLING_MAINTENANCE_INTERVAL_MS = 10 * 60 * 1000;
/** How often accounts are reconciled with the identity service after the pass at start. */
const RECONCILE_INTERVAL_MS = 60 * 60 * 1000;

declare module 'fastify' {
  interface FastifyInstance {
    billing: BillingService;
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
 * Builds the whole server: database, services, GraphQL, health and the web app. Used by main.ts
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
  const billing = new BillingService(dataSource, identity.client, stripe, {
    publicUrl: config.publicUrl,
    graceDays: config.billing.graceDays,
    log: app.log,
  });
  app.decorate('billing', billing);
  const lifecycle = [billing, ...(dependencies.accountLifecycle ?? [])];
  const accounts = new AccountService(dataSource, identity.client, verses, lifecycle, {
    siteUrl: config.publicUrl,
    random: dependencies.random,
    log: app.log,
  });
  const resolverInstances = new Map<unknown, object>([
    [VerseResolver, new VerseResolver(verses)],
    [AccountResolver, new AccountResolver(accounts)],
    [MemberResolver, new MemberResolver()],
    [ProfileResolver, new ProfileResolver(profiles)],
    [PublicProfileResolver, new PublicProfileResolver(profiles)],
    [BillingResolver, new BillingResolver(billing)],
    [LinkResolver, new LinkResolver(links, pageStats)],
    [PublicLinkResolver, new PublicLinkResolver()],
  ]);
  const schema = await buildGraphQLSchema({ get: (resolverClass: unknown) => resolverInstances.get(resolverClass) });

  const apollo = createApollo(app, schema, {
    ...config.graphql,
    production: security.production,
    plugins: [openQueriesPlugin<Context>(trustedOrigins(security)), metrics.graphqlPlugin<Context>()],
  });
  await apollo.start();
  app.addHook('onClose', async () => apollo.stop());
  app.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    handler: fastifyApolloHandler<Context>(apollo, {
      context: async (request) =>
        createContext({
          user: await authenticate(request.headers.authorization, identity.verifier),
          loaders: createLoaders(dataSource),
          log: request.log,
          clientIp: request.ip,
        }),
    }),
  });

  registerStripeWebhook(app, stripe, billing);
  registerLinkRoutes(app, { links, stats: pageStats });

  if (background) startBillingUpkeep(app, dataSource, billing);

  if (background && config.reconcile.onStart) {
    startReconciliation(app, dataSource, accounts, config.reconcile.graceSeconds);
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

/**
 * Once listening: reads the Stripe catalog (products made before the webhook existed); then, once
 * per interval across every instance, ends grace periods that ran out and retries claims the
 * identity service refused (grants made by `npm run plus` too, so this runs without Stripe keys).
 */
function startBillingUpkeep(app: FastifyInstance, dataSource: DataSource, billing: BillingService): void {
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
function startReconciliation(
  app: FastifyInstance,
  dataSource: DataSource,
  accounts: AccountService,
  graceSeconds: number,
): void {
  scheduleJob(app, dataSource, {
    name: 'reconcile-accounts',
    intervalMs: RECONCILE_INTERVAL_MS,
    run: async () => {
      const report = await accounts.reconcile(graceSeconds * 1000);
      if (report.created + report.deleted + report.failed > 0) {
        app.log.warn(report, 'accounts reconciled with the identity service');
      }
    },
  });
}

function readCatalog(app: FastifyInstance, billing: BillingService): void {
  billing
    .syncCatalog()
    .then((prices) => {
      app.log.info({ prices }, 'billing: Stripe catalog read');
    })
    .catch((error: unknown) => {
      app.log.error({ err: error }, 'billing: could not read the Stripe catalog; webhooks will bring it');
    });
}
