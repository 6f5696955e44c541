import 'reflect-metadata';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import Fastify, { LogController } from 'fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { Config } from '../config.js';
import { createApollo, formatError } from '../graphql/apollo.js';
import { crossSitePlugin } from '../graphql/cross-site.js';
import type { Context } from '../graphql/context.js';
import { PublicExecutor } from '../graphql/public-executor.js';
import { callResolversDirectly } from '../graphql/schema.js';
import { simpleGetMarker } from '../graphql/simple-get.js';
import { subscriptionHandler } from '../graphql/subscription-server.js';
import { bindSubscriptions } from '../graphql/subscriptions.js';
import { graphqlAnswerHeaders } from '../http/answer-headers.js';
import { refusesCrossSite } from '../http/cross-site.js';
import { registerDrain } from '../http/drain.js';
import { registerErrorHandler } from '../http/error-handler.js';
import { registerHealthRoutes } from '../http/health.js';
import { logsAt } from '../http/lazy-logger.js';
import { registerRequestTrace, withRequestTrace } from '../http/request-trace.js';
import { openAnswerHeadersFor, openQueriesPlugin, registerSecurity, trustedOrigins } from '../http/security.js';
import { sharedServerOptions } from '../http/server-options.js';
import { registerWebApp } from '../http/web.js';
import { operationEndsAt } from '../identity/deadline.js';
import { oembedUrl } from '../rules/embeds.js';
import { scheduleJob } from '../jobs/schedule.js';
import { createContext } from './context.js';
import { homePageRenderer } from './home-page.js';
import type { AnswerCache } from '../graphql/answer-cache.js';
import { modules } from './modules.js';
import { profilePageRenderer } from './profile-page.js';
import { CACHED_FIELDS, publicAnswerCache } from './public-answers.js';
import { registerPublicRoutes } from './public-routes.js';
import { buildAppSchema, publicRootFields, resolverContainer } from './schema.js';
import { buildServices } from './services.js';
import type { AppServices } from './services.js';
import type { AppDependencies } from './app-dependencies.js';

/**
 * Root fields whose queries run compiled (graphql/public-executor.ts): the kept ones, and `me`, the
 * signed-in app's first read. Each only reads (through the loaders), so a query of them that gives
 * an error may run again through graphql-js.
 */
const COMPILED_FIELDS: ReadonlySet<string> = new Set([...CACHED_FIELDS, 'me']);

export type { AppDependencies };

/**
 * An answer that took this long is logged at info level even when it succeeded. Other successful
 * answers are logged at debug level: the metrics count and time every request, and a line per
 * answer cost an eighth of the CPU of a public profile read when profiled.
 */
const SLOW_ANSWER_MS = 1000;

/**
 * The composition root: builds every feature's services (app/services.ts) and puts the HTTP server
 * in front of them: GraphQL, the features' routes and background jobs, health and the web app.
 * Used by main.ts and by the tests, which call `inject` or `listen` on the result. Closing the app
 * closes everything it and the services opened.
 */
export async function buildApp(config: Config, dependencies: AppDependencies = {}): Promise<FastifyInstance> {
  const built = await buildServices(config, dependencies);
  try {
    return await buildServer(config, built);
  } catch (error) {
    await built.close();
    throw error;
  }
}

/** The HTTP server in front of the services; closing it closes them. */
async function buildServer(config: Config, built: AppServices): Promise<FastifyInstance> {
  const { kernel, services } = built;
  const app: FastifyInstance = Fastify({
    loggerInstance: kernel.log,
    ...sharedServerOptions(config),
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    return503OnClosing: true,
  });
  // After the requests in flight are done: the identity calls of a login among them still need the services.
  app.addHook('onClose', () => built.close());
  const security = {
    production: config.env === 'production',
    publicUrl: config.publicUrl,
    corsOrigins: config.corsOrigins,
    tagManager: config.web.gtmContainerId !== undefined,
  };
  registerSecurity(app, security);
  registerErrorHandler(app);
  registerDrain(app);
  registerRequestTrace(app);
  // Hooks on every request take a callback: an async hook costs a promise and a turn of the queue.
  // The line is made only at a level that is written: a quick success is `debug`, off by default.
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const ms = Math.round(reply.elapsedTime);
    const level = status >= 500 ? 'error' : status >= 400 || ms >= SLOW_ANSWER_MS ? 'info' : 'debug';
    if (logsAt(request.log, level)) {
      // The path only: query strings carry secrets (the emailed `/auth/v1/verify?token=…`).
      const entry = { method: request.method, path: request.url.split('?', 1)[0], status, ms };
      request.log[level](entry, status >= 500 ? 'request failed' : 'request completed');
    }
    done();
  });
  const { metrics } = kernel;
  app.decorate('metrics', metrics);
  metrics.observeRequests(app);
  if (config.metricsPort !== undefined) metrics.serve(app, config.host, config.metricsPort);
  app.decorate('identity', services.identity);
  app.decorate('billing', services.billing);
  app.decorate('verseMail', services.verseMail);
  app.decorate('operator', services.operator);

  const container = resolverContainer(services, kernel);
  const schema = await buildAppSchema(container);
  callResolversDirectly(schema, COMPILED_FIELDS, (resolverClass) => container.get(resolverClass));
  bindSubscriptions(schema, { live: kernel.live, loaders: kernel.loaders, container });
  const answers = await registerGraphql(app, built, schema, trustedOrigins(security));
  app.decorate('publicAnswers', answers ?? null);
  registerPublicRoutes(app, config, kernel.dataSource, schema);
  for (const module of modules) await module.routes?.(app, services, kernel);
  if (kernel.background) {
    for (const module of modules) {
      for (const job of module.jobs?.(services, kernel) ?? []) scheduleJob(app, kernel.dataSource, job);
    }
  }
  registerHealthRoutes(app, kernel.dataSource, services.identity.redis, built.build);
  await registerWebPages(app, built, { schema, answers });
  return app;
}

/**
 * `/graphql`: the lean public executor first (queries and public mutations, with the answer
 * cache), then Apollo for what it declines, both with one context per request.
 */
async function registerGraphql(
  app: FastifyInstance,
  { kernel }: AppServices,
  schema: GraphQLSchema,
  isTrusted: (origin: string) => boolean,
): Promise<AnswerCache | undefined> {
  const { config, metrics } = kernel;
  const production = config.env === 'production';
  // Mutations, public ones included, only from the site, CORS_ORIGINS, or clients that are not a page on another site.
  const refusesCrossSiteMutation = refusesCrossSite(isTrusted);
  const apollo = createApollo(app, schema, {
    ...config.graphql,
    production,
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
        user: await kernel.authenticate(request.headers.authorization),
        loaders: kernel.loaders(),
        log: request.log,
        clientIp: request.ip,
      }))());
  const graphqlHandler = fastifyApolloHandler<Context>(apollo, { context: contextOf });
  const openAnswerHeaders = openAnswerHeadersFor(isTrusted);
  // The budget in characters: a byte each in ASCII answers, two where wider text appears.
  const answerCache = publicAnswerCache(app, kernel.dataSource, {
    maxChars: Math.floor(config.graphql.answerCacheMb * 1024 * 1024),
    serve: config.graphql.leanPublic,
  });
  const publicQueries = config.graphql.leanPublic
    ? new PublicExecutor({
        schema,
        publicFields: publicRootFields('Query'),
        publicMutations: publicRootFields('Mutation'),
        production,
        context: contextOf,
        formatError: formatError(app.log),
        refusesMutation: (request) => refusesCrossSiteMutation(request.headers),
        responseHeaders: (request, operation) => openAnswerHeaders(request.headers.origin, operation),
        observeAnswer: (errors) => {
          metrics.leanAnswers.inc();
          metrics.countGraphqlErrors(errors);
        },
        compiledFields: COMPILED_FIELDS,
        answers: answerCache && {
          ...answerCache,
          onHit: () => {
            metrics.cachedAnswers.inc();
          },
        },
      })
    : undefined;
  const markSimpleGet = simpleGetMarker(publicRootFields('Query'));
  // Subscriptions: the WebSocket upgrade of `GET /graphql` (graphql-ws), on the same schema and limits.
  const wsHandler = await subscriptionHandler(app, {
    schema,
    settings: config.subscriptions,
    production,
    live: kernel.live,
    authenticate: kernel.authenticate,
    loaders: kernel.loaders,
    formatError: formatError(app.log),
  });
  for (const method of ['GET', 'POST', 'OPTIONS'] as const) {
    app.route({
      url: '/graphql',
      method,
      onSend: graphqlAnswerHeaders,
      // One deadline for all the identity calls of the operation, counted from its arrival; those
      // calls carry the request's id and trace.
      handler: function (request, reply) {
        markSimpleGet(request);
        return withRequestTrace(
          request,
          async () => (await publicQueries?.answer(request, reply)) ?? graphqlHandler.call(this, request, reply),
          operationEndsAt(),
        );
      },
      // @fastify/websocket takes a WebSocket handler on GET routes only.
      ...(method === 'GET' && { wsHandler }),
    });
  }
  return answerCache?.cache;
}

/** The web app's pages, registered last: its not-found handler serves `/@username` and the app's routes. */
async function registerWebPages(
  app: FastifyInstance,
  { kernel, services }: AppServices,
  { schema, answers }: { schema: GraphQLSchema; answers: AnswerCache | undefined },
): Promise<void> {
  const { config } = kernel;
  const { profiles, pageStats, shares, verses, billing } = services;
  await registerWebApp(app, {
    distDir: config.webDistDir,
    publicUrl: config.publicUrl,
    gtmContainerId: config.web.gtmContainerId,
    supportEmail: config.web.supportEmail,
    billing: billing.enabled,
    // The same lookup as the `profile` query, for the meta tags of `/@username` pages.
    findProfile: (username) => profiles.findPublic(username, kernel.loaders()),
    countView: (profile, visitor) => pageStats.countView(profile.uid, visitor),
    // Versioned by the day (the verse changes with it); the ETag follows changes within a day.
    shareImageUrl: (profile) =>
      `${shares.pageUrl(profile.username).replace('/@', '/share/')}/card.png?day=${new Date().toISOString().slice(0, 10)}`,
    oembedUrl: (pageUrl) => oembedUrl(config.publicUrl, pageUrl),
    verseImageUrl: () => `${config.publicUrl}/share/verse-of-the-day/${new Date().toISOString().slice(0, 10)}.png`,
    renderHome: homePageRenderer(verses, config.webSsrDir),
    renderProfile: profilePageRenderer({
      schema,
      newLoaders: kernel.loaders,
      ssrDir: config.webSsrDir,
      publicUrl: config.publicUrl,
      answers,
      onHit: () => {
        kernel.metrics.cachedAnswers.inc();
      },
    }),
  });
}
