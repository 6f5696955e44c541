import type { FastifyBaseLogger, FastifyInstance, FastifyPluginCallback } from 'fastify';
import Fastify from 'fastify';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { Config } from '../../config.js';
import { CROSS_SITE_MESSAGE, refusesCrossSite } from '../../http/cross-site.js';
import { sharedServerOptions } from '../../http/server-options.js';
import type { Mailer } from '../../mail/mail.transport.js';
import { createMailer } from '../../mail/mail.transport.js';
import { mountRoutes } from './api.js';
import type { IdentityContext } from './context.js';
import { ApiError, sendIdentityError } from './errors.js';
import type { FactorSecrets } from './factor-secrets.js';
import { factorSecrets } from './factor-secrets.js';
import type { IdentityKeys } from './keys.js';
import { loadIdentityKeys } from './keys.js';
import type { IdentityLimits } from './rate-limits.js';
import { createIdentityLimits } from './rate-limits.js';

const CORS_ALLOWED_HEADERS =
  'Authorization, Content-Type, X-Client-Info, X-JWT-AUD, x-use-cookie, X-Supabase-Api-Version, apikey, Sb-Forwarded-For';
const CORS_EXPOSED_HEADERS = 'X-Total-Count, Link, X-Supabase-Api-Version';

/** Methods that change nothing: emailed links (GET /verify) are followed from other sites. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The browser origins that may call the service: the site (PUBLIC_URL, AUTH_SITE_URL) and CORS_ORIGINS. */
function identityOrigins(config: Config): ReadonlySet<string> {
  return new Set([new URL(config.publicUrl).origin, new URL(config.auth.siteUrl).origin, ...config.corsOrigins]);
}

/** What the embedded identity service runs on. */
export interface EmbeddedIdentityOptions {
  config: Config;
  dataSource: DataSource;
  keys: IdentityKeys;
  mailer: Mailer;
  limits: IdentityLimits;
  factorSecrets: FactorSecrets;
}

function identityContext(options: EmbeddedIdentityOptions, log: FastifyBaseLogger): IdentityContext {
  return {
    settings: options.config.auth,
    keys: options.keys,
    dataSource: options.dataSource,
    mailer: options.mailer,
    limits: options.limits,
    factorSecrets: options.factorSecrets,
    externalUrl: `${options.config.publicUrl}/auth/v1`,
    audience: options.config.identity.audience,
    log,
  };
}

/**
 * The embedded identity service as a Fastify plugin: Supabase Auth's HTTP contract for
 * email/password accounts (docs/identity-contract.md). Register it at `/auth/v1`.
 */
export function embeddedIdentity(options: EmbeddedIdentityOptions): FastifyPluginCallback {
  return (app, _options, done) => {
    const context = identityContext(options, app.log);
    // Bodies are JSON, and an empty body is none. Other content types are refused: a form or
    // text/plain post is a "simple" request another website can make from its visitors' browsers.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, parsed) => {
      const source = typeof body === 'string' ? body : body.toString('utf8');
      if (source.trim() === '') {
        parsed(null, undefined);
        return;
      }
      try {
        parsed(null, JSON.parse(source) as unknown);
      } catch (error) {
        const reason = error instanceof Error ? error.message : 'invalid JSON';
        parsed(new ApiError(400, 'bad_json', `Could not parse request body as JSON: ${reason}`), undefined);
      }
    });
    app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, parsed) => {
      const source = typeof body === 'string' ? body : body.toString('utf8');
      if (source.trim() === '') parsed(null, undefined);
      else
        parsed(
          new ApiError(415, 'bad_json', 'Request bodies must be JSON (Content-Type: application/json)'),
          undefined,
        );
    });
    app.setErrorHandler(sendIdentityError);
    app.setNotFoundHandler(async (request, reply) => {
      await sendIdentityError(new ApiError(404, 'not_found', 'Not Found'), request, reply);
    });
    const trusted = identityOrigins(options.config);
    const refuses = refusesCrossSite((origin) => trusted.has(origin));
    app.addHook('onRequest', async (request, reply) => {
      // A page on another site may not sign its visitors in or up, or change anything, through their browsers.
      if (!SAFE_METHODS.has(request.method) && refuses(request.headers)) {
        throw new ApiError(403, 'cross_site_request', CROSS_SITE_MESSAGE);
      }
      const origin = request.headers.origin;
      // Only the site and the configured origins may call the identity service from a browser.
      if (origin === undefined || !trusted.has(origin)) return;
      void reply
        .header('access-control-allow-origin', origin)
        .header('access-control-allow-credentials', 'true')
        .header('access-control-expose-headers', CORS_EXPOSED_HEADERS)
        .header('vary', 'Origin');
      if (request.method === 'OPTIONS') {
        await reply
          .code(204)
          .header('access-control-allow-methods', 'GET, POST, PUT, DELETE, OPTIONS')
          .header('access-control-allow-headers', CORS_ALLOWED_HEADERS)
          .header('access-control-max-age', '300')
          .send();
      }
    });
    app.options('/*', async (_request, reply) => reply.code(204).send());

    mountRoutes(app, context);
    done();
  };
}

/**
 * Readies the embedded service: its keys (the development secret is made on first use), the
 * mailer it sends through, and rate limits (shared through `redis` when given, else in memory).
 * Register the returned plugin where the service should answer.
 */
export async function prepareEmbeddedIdentity(
  config: Config,
  dataSource: DataSource,
  mailer: Mailer,
  redis?: Redis,
): Promise<{ plugin: FastifyPluginCallback; keys: IdentityKeys }> {
  const keys = await loadIdentityKeys(config);
  const limits = createIdentityLimits(config.auth, redis);
  const secrets = factorSecrets(config);
  return { plugin: embeddedIdentity({ config, dataSource, keys, mailer, limits, factorSecrets: secrets }), keys };
}

/**
 * The embedded identity service on its own Fastify instance, answering at the root path as
 * Supabase Auth itself does (and at /auth/v1, where supabase-js looks for it). Rate limits are
 * kept in memory.
 */
export async function createIdentityServer(config: Config, dataSource: DataSource): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    ...sharedServerOptions(config),
  });
  const mailer = createMailer(config, dataSource, app.log);
  app.addHook('onClose', () => {
    mailer.close();
  });
  const { plugin } = await prepareEmbeddedIdentity(config, dataSource, mailer);
  await app.register(plugin, { prefix: '/auth/v1' });
  await app.register(plugin);
  return app;
}
