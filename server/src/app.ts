import 'reflect-metadata';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import Fastify, { LogController } from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import type { Config } from './config.js';
import { createDataSource, openDatabase } from './db/data-source.js';
import { createApollo } from './graphql/apollo.js';
import { createContext } from './graphql/context.js';
import type { Context } from './graphql/context.js';
import { createLoaders } from './graphql/loaders.js';
import { buildGraphQLSchema } from './graphql/schema.js';
import { registerHealthRoutes } from './http/health.js';
import { registerWebApp } from './http/web.js';
import { MemberResolver } from './accounts/member.resolver.js';
import { ProfileResolver } from './profiles/profile.resolver.js';
import { ProfileService } from './profiles/profile.service.js';
import { PublicProfileResolver } from './profiles/public-profile.resolver.js';
import { VerseRecord } from './verses/verse.entity.js';
import { VerseResolver } from './verses/verse.resolver.js';
import { VerseService } from './verses/verse.service.js';

/** Largest request body accepted anywhere (GraphQL documents, identity calls, webhooks). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface AppDependencies {
  /** An open, migrated data source to use instead of opening the configured database. */
  dataSource?: DataSource;
}

/**
 * Builds the whole server: database, services, GraphQL, health and the web app. Used by main.ts
 * and by the tests, which call `inject` or `listen` on the result. Closing the app closes
 * everything it opened.
 */
export async function buildApp(config: Config, dependencies: AppDependencies = {}): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    logger: { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
  });
  app.addHook('onResponse', async (request, reply) => {
    const entry = {
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    if (reply.statusCode >= 500) request.log.error(entry, 'request failed');
    else request.log.debug(entry, 'request completed');
  });

  const dataSource = dependencies.dataSource ?? (await openDatabase(createDataSource(config.database)));
  if (!dependencies.dataSource) app.addHook('onClose', async () => dataSource.destroy());

  const verses = new VerseService(dataSource.getRepository(VerseRecord));
  const profiles = new ProfileService(dataSource, verses);
  const resolverInstances = new Map<unknown, object>([
    [VerseResolver, new VerseResolver(verses)],
    [MemberResolver, new MemberResolver()],
    [ProfileResolver, new ProfileResolver(profiles)],
    [PublicProfileResolver, new PublicProfileResolver(profiles)],
  ]);
  const schema = await buildGraphQLSchema({ get: (resolverClass: unknown) => resolverInstances.get(resolverClass) });

  const apollo = createApollo(app, schema, config.graphql);
  await apollo.start();
  app.addHook('onClose', async () => apollo.stop());
  app.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    handler: fastifyApolloHandler<Context>(apollo, {
      context: (request) =>
        Promise.resolve(createContext({ user: null, loaders: createLoaders(dataSource), log: request.log })),
    }),
  });

  registerHealthRoutes(app, dataSource);
  await registerWebApp(app, {
    distDir: config.webDistDir,
    publicUrl: config.publicUrl,
    gtmContainerId: config.web.gtmContainerId,
    // The same visibility rule as the `profile` query, for the meta tags of `/@username` pages.
    findProfile: async (username) => {
      const loaders = createLoaders(dataSource);
      const record = await loaders.profileByUsername.load(username.trim().toLowerCase());
      const owner = record ? await loaders.userByUid.load(record.uid) : null;
      return record && owner ? profiles.publicView(record, owner) : null;
    },
  });
  return app;
}
