import 'reflect-metadata';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import Fastify, { LogController } from 'fastify';
import { pino } from 'pino';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { openDatabase, useRequestBusyTimeout } from '../db/data-source.js';
import { sqliteWritableCheck } from '../db/sqlite-guard.js';
import { createApollo, formatError } from '../graphql/apollo.js';
import { crossSitePlugin } from '../graphql/cross-site.js';
import type { Context } from '../graphql/context.js';
import { PublicExecutor } from '../graphql/public-executor.js';
import { simpleGetMarker } from '../graphql/simple-get.js';
import { graphqlAnswerHeaders } from '../http/answer-headers.js';
import { refusesCrossSite } from '../http/cross-site.js';
import { registerDrain } from '../http/drain.js';
import { registerErrorHandler } from '../http/error-handler.js';
import { registerHealthRoutes } from '../http/health.js';
import { registerRequestTrace, withRequestTrace } from '../http/request-trace.js';
import { openAnswerHeadersFor, openQueriesPlugin, registerSecurity, trustedOrigins } from '../http/security.js';
import { sharedServerOptions } from '../http/server-options.js';
import { registerWebApp } from '../http/web.js';
import { readBuildInfo } from '../observability/build-info.js';
import { Metrics } from '../observability/metrics.js';
import { AccountResolver } from '../accounts/account.resolver.js';
import { AccountService } from '../accounts/account.service.js';
import { SignInLimits } from '../accounts/sign-in-limits.js';
import { MemberRecords } from '../accounts/member-records.js';
import { MemberResolver } from '../accounts/member.resolver.js';
import { MfaResolver } from '../accounts/mfa.resolver.js';
import { MfaService } from '../accounts/mfa.service.js';
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
import { FirstVisits } from '../links/first-visits.js';
import { PageStatsService } from '../links/page-stats.service.js';
import { PhotoResolver, PublicPhotoResolver } from '../photos/photo.resolver.js';
import { registerPhotoRoutes } from '../photos/photo.routes.js';
import { PhotoService } from '../photos/photo.service.js';
import { ProfileResolver } from '../profiles/profile.resolver.js';
import { ProfileService } from '../profiles/profile.service.js';
import { PublicProfileResolver } from '../profiles/public-profile.resolver.js';
import { UsernameAvailabilityResolver } from '../profiles/username-availability.resolver.js';
import { UsernameAvailabilityService } from '../profiles/username-availability.service.js';
import { registerShareRoutes } from '../sharing/share.routes.js';
import { ShareService } from '../sharing/share.service.js';
import { ByteCache } from '../work/byte-cache.js';
import { defaultHeavySlots, HeavyCapacity } from '../work/capacity.js';
import { windowLimiter } from '../work/rate-limit.js';
import { WorkerPool } from '../work/worker-pool.js';
import { VerseRecord } from '../verses/verse.entity.js';
import { VerseResolver } from '../verses/verse.resolver.js';
import { VerseService } from '../verses/verse.service.js';
import { registerVersePages } from '../verses/verse-pages.js';
import { SavedVerseResolver } from '../saved-verses/saved-verse.resolver.js';
import { SavedVerseService } from '../saved-verses/saved-verse.service.js';
import { VerseMailResolver } from '../verse-mail/verse-mail.resolver.js';
import { registerVerseMailRoutes } from '../verse-mail/verse-mail-routes.js';
import { VerseMailService } from '../verse-mail/verse-mail.service.js';
import { createMailer } from '../mail/mail.transport.js';
import { DataExportResolver } from '../exports/data-export.resolver.js';
import { DataExportService } from '../exports/data-export.service.js';
import type { SessionSource } from '../exports/data-export.service.js';
import { AuthSessionRecord } from '../identity/embedded/entities.js';
import { PageHoldResolver } from '../moderation/page-hold.resolver.js';
import { ReportResolver } from '../moderation/report.resolver.js';
import { ReportService } from '../moderation/report.service.js';
import type { OperatorDeps } from '../operator/operator-context.js';
import { authenticate, createContext } from './context.js';
import { createDataSource } from './data-source.js';
import { homePageRenderer } from './home-page.js';
import { profilePageRenderer } from './profile-page.js';
import { startBillingUpkeep, startReconciliation, startVerseMail } from './jobs.js';
import { loadersFor } from './loaders.js';
import { publicAnswerCache } from './public-answers.js';
import { registerPublicRoutes } from './public-routes.js';
import { buildAppSchema, publicRootFields } from './schema.js';
import type { AppDependencies } from './app-dependencies.js';

export type { AppDependencies };

/**
 * An answer that took this long is logged at info level even when it succeeded. Other successful
 * answers are logged at debug level: the metrics count and time every request, and a line per
 * answer cost an eighth of the CPU of a public profile read when profiled.
 */
const SLOW_ANSWER_MS = 1000;

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
  registerRequestTrace(app);
  // Hooks on every request take a callback: an async hook costs a promise and a turn of the queue.
  app.addHook('onResponse', (request, reply, done) => {
    const entry = {
      method: request.method,
      // The path only: query strings carry secrets (the emailed `/auth/v1/verify?token=…`).
      path: request.url.split('?', 1)[0],
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    if (reply.statusCode >= 500) request.log.error(entry, 'request failed');
    else if (reply.statusCode >= 400 || entry.ms >= SLOW_ANSWER_MS) request.log.info(entry, 'request completed');
    else request.log.debug(entry, 'request completed');
    done();
  });

  const dataSource = dependencies.dataSource ?? (await openDatabase(createDataSource(config.database)));
  if (!dependencies.dataSource) app.addHook('onClose', async () => dataSource.destroy());
  // Migrations ran with the long wait; requests must not freeze the process that long (F1).
  await useRequestBusyTimeout(dataSource);
  try {
    sqliteWritableCheck(dataSource)?.();
  } catch (error) {
    app.log.error(
      { err: error },
      'the SQLite database cannot be written: writes fail and /readyz answers 503 until it can',
    );
  }
  const build = readBuildInfo();
  const metrics = new Metrics(dataSource, build);
  app.decorate('metrics', metrics);
  metrics.observeRequests(app);
  if (config.metricsPort !== undefined) metrics.serve(app, config.host, config.metricsPort);

  const background = dependencies.background ?? true;
  // One SMTP transport for all mail: the embedded identity service's and the morning verse.
  const mailer = createMailer(config, dataSource, app.log);
  app.addHook('onClose', () => {
    mailer.close();
  });
  const identity = await mountIdentity(app, config, dataSource, {
    fetch: dependencies.identityFetch,
    background,
    mailer,
  });

  const verses = new VerseService(dataSource.getRepository(VerseRecord));
  const newLoaders = loadersFor(dataSource);
  const profiles = new ProfileService(dataSource, verses);
  const savedVerses = new SavedVerseService(dataSource, verses);
  const verseMail = new VerseMailService({
    dataSource,
    verses,
    identity: identity.client,
    mailer,
    publicUrl: config.publicUrl,
    log: app.log,
    clock: dependencies.clock,
  });
  app.decorate('verseMail', verseMail);
  const links = new LinkService(dataSource);
  // Each visitor counts once a day per page and link; instances agree through Redis when there is one.
  const pageStats = new PageStatsService(dataSource, new FirstVisits(identity.redis, app.log));
  // One bound on the cores heavy work takes, with a lane per kind (members' uploads; cards and QR
  // codes for anyone), so that a card flood never puts off an upload: see work/capacity.ts.
  const heavySlots = config.heavy.threads ?? defaultHeavySlots();
  const capacity = new HeavyCapacity(heavySlots, config.heavy.queue);
  const [uploadCapacity, renderCapacity] = [capacity.lane(), capacity.lane()];
  const workers = new WorkerPool(heavySlots);
  app.addHook('onClose', async () => workers.close());
  const photos = new PhotoService(
    dataSource,
    uploadCapacity,
    windowLimiter('photo-uploads', config.heavy.uploadsPerHour, 3600, identity.redis),
  );
  const shares = new ShareService(
    profiles,
    verses,
    newLoaders,
    config.publicUrl,
    {
      capacity: renderCapacity,
      pool: workers,
      cache: new ByteCache(config.heavy.cacheMb * 1024 * 1024, identity.redis),
      renders: windowLimiter('renders', config.heavy.rendersPerMinute, 60, identity.redis),
    },
    photos,
  );
  const stripe = await StripeClient.fromConfig(config.billing);
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
  const accounts = new AccountService(identity.client, records, lifecycle, {
    siteUrl: config.publicUrl,
    limits: SignInLimits.create(config.auth.rateLimits, identity.redis),
  });
  const reconciler = new AccountReconciler(dataSource, identity.client, records, app.log);
  const reports = new ReportService(dataSource, profiles, identity.redis);
  // The embedded identity service's sessions are in our database; a hosted one keeps its own.
  const embedded = identity.mode === 'embedded';
  const sessions = dataSource.getRepository(AuthSessionRecord);
  const sessionSource: SessionSource | undefined = embedded
    ? async (uid) =>
        (await sessions.find({ where: { userId: uid }, order: { createdAt: 'ASC' } })).map((session) => ({
          id: session.id,
          userAgent: session.userAgent,
          ip: session.ip,
          createdAt: session.createdAt,
          updatedAt: session.updatedAt,
          refreshedAt: session.refreshedAt,
        }))
    : undefined;
  const dataExports = new DataExportService(dataSource, identity.client, sessionSource);
  app.decorate('operator', {
    dataSource,
    identity: identity.client,
    records,
    lifecycle,
    exports: dataExports,
    reports,
    endSessions: embedded ? async (uid: string) => (await sessions.delete({ userId: uid })).affected ?? 0 : undefined,
  } satisfies OperatorDeps);
  const resolverInstances = new Map<unknown, object>([
    [VerseResolver, new VerseResolver(verses)],
    [AccountResolver, new AccountResolver(accounts)],
    [MemberResolver, new MemberResolver()],
    [MfaResolver, new MfaResolver(new MfaService(identity.client, accounts))],
    [ProfileResolver, new ProfileResolver(profiles)],
    [PublicProfileResolver, new PublicProfileResolver(profiles)],
    [
      UsernameAvailabilityResolver,
      new UsernameAvailabilityResolver(new UsernameAvailabilityService(dataSource, identity.redis)),
    ],
    [BillingResolver, new BillingResolver(billing.checkout, billing.roles)],
    [LinkResolver, new LinkResolver(links, pageStats)],
    [PublicLinkResolver, new PublicLinkResolver()],
    [PhotoResolver, new PhotoResolver(photos, config.publicUrl)],
    [PublicPhotoResolver, new PublicPhotoResolver(config.publicUrl)],
    [SavedVerseResolver, new SavedVerseResolver(savedVerses)],
    [VerseMailResolver, new VerseMailResolver(verseMail)],
    [ReportResolver, new ReportResolver(reports)],
    [PageHoldResolver, new PageHoldResolver()],
    [DataExportResolver, new DataExportResolver(dataExports, identity.client)],
  ]);
  const schema = await buildAppSchema({ get: (resolverClass: unknown) => resolverInstances.get(resolverClass) });

  const isTrusted = trustedOrigins(security);
  // Mutations, public ones included, only from the site, CORS_ORIGINS, or clients that are not a page on another site.
  const refusesCrossSiteMutation = refusesCrossSite(isTrusted);
  const apollo = createApollo(app, schema, {
    ...config.graphql,
    production: security.production,
    plugins: [
      crossSitePlugin<Context>(refusesCrossSiteMutation),
      openQueriesPlugin<Context>(isTrusted),
      metrics.graphqlPlugin<Context>(),
    ],
  });
  await apollo.start();
  app.addHook('onClose', async () => apollo.stop());
  // Built once per request: when the lean executor declines (a token that does not verify, say),
  // Apollo answers with the same context, or the same refusal, without verifying the token again.
  // Kept on the request itself (a WeakMap keyed by requests made garbage collection dearer).
  app.decorateRequest('graphqlContext', null);
  const contextOf = (request: FastifyRequest): Promise<Context> =>
    (request.graphqlContext ??= (async () =>
      createContext({
        user: await authenticate(request.headers.authorization, identity.verifier),
        loaders: newLoaders(),
        log: request.log,
        clientIp: request.ip,
      }))());
  const graphqlHandler = fastifyApolloHandler<Context>(apollo, { context: contextOf });
  const openAnswerHeaders = openAnswerHeadersFor(isTrusted);
  // The budget in characters: a byte each in ASCII answers, two where wider text appears.
  const answerCache = publicAnswerCache(app, dataSource, {
    maxChars: Math.floor(config.graphql.answerCacheMb * 1024 * 1024),
    serve: config.graphql.leanPublic,
  });
  const publicQueries = config.graphql.leanPublic
    ? new PublicExecutor({
        schema,
        publicFields: publicRootFields('Query'),
        publicMutations: publicRootFields('Mutation'),
        production: security.production,
        context: contextOf,
        formatError: formatError(app.log),
        refusesMutation: (request) => refusesCrossSiteMutation(request.headers),
        responseHeaders: (request, operation) => openAnswerHeaders(request.headers.origin, operation),
        observeAnswer: (errors) => {
          metrics.leanAnswers.inc();
          metrics.countGraphqlErrors(errors);
        },
        answers: answerCache && {
          ...answerCache,
          onHit: () => {
            metrics.cachedAnswers.inc();
          },
        },
      })
    : undefined;
  const markSimpleGet = simpleGetMarker(publicRootFields('Query'));
  app.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    onSend: graphqlAnswerHeaders,
    // One deadline for all the identity calls of the operation, counted from its arrival; those
    // calls carry the request's id and trace.
    handler: function (request, reply) {
      markSimpleGet(request);
      return withRequestTrace(request, () =>
        withOperationDeadline(
          async () => (await publicQueries?.answer(request, reply)) ?? graphqlHandler.call(this, request, reply),
        ),
      );
    },
  });
  registerPublicRoutes(app, config, dataSource, schema);

  registerStripeWebhook(app, stripe, billing.sync);
  registerLinkRoutes(app, { links, stats: pageStats });
  registerPhotoRoutes(app, {
    photos,
    authenticate: (header) => authenticate(header, identity.verifier),
    publicUrl: config.publicUrl,
  });
  registerShareRoutes(app, shares);
  registerVersePages(app, { verses, publicUrl: config.publicUrl });
  registerVerseMailRoutes(app, verseMail);

  if (background) startBillingUpkeep(app, dataSource, billing);
  if (background) startVerseMail(app, dataSource, verseMail);

  if (background && config.reconcile.onStart) {
    startReconciliation(app, dataSource, reconciler, config.reconcile.graceSeconds);
  }

  registerHealthRoutes(app, dataSource, identity.redis, build);
  await registerWebApp(app, {
    distDir: config.webDistDir,
    publicUrl: config.publicUrl,
    gtmContainerId: config.web.gtmContainerId,
    supportEmail: config.web.supportEmail,
    billing: billing.enabled,
    // The same lookup as the `profile` query, for the meta tags of `/@username` pages.
    findProfile: (username) => profiles.findPublic(username, newLoaders()),
    countView: (profile, visitor) => pageStats.countView(profile.uid, visitor),
    // Versioned by the day (the verse changes with it); the ETag follows changes within a day.
    shareImageUrl: (profile) =>
      `${shares.pageUrl(profile.username).replace('/@', '/share/')}/card.png?day=${new Date().toISOString().slice(0, 10)}`,
    verseImageUrl: () => `${config.publicUrl}/share/verse-of-the-day/${new Date().toISOString().slice(0, 10)}.png`,
    renderHome: homePageRenderer(verses, config.webSsrDir),
    renderProfile: profilePageRenderer({
      schema,
      newLoaders,
      ssrDir: config.webSsrDir,
      publicUrl: config.publicUrl,
      answers: answerCache?.cache,
    }),
  });
  return app;
}
