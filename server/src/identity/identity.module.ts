import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type {} from '../observability/metrics.js';
import type { DataSource } from 'typeorm';
import type { Config } from '../config.js';
import { scheduleJob } from '../jobs/schedule.js';
import { internalIdentityFetch } from './embedded/in-process.js';
import type { IdentityKeys } from './embedded/keys.js';
import type { IdentityContext } from './embedded/context.js';
import { prepareEmbeddedIdentity } from './embedded/service.js';
import { pruneExpired, sessionLiveness } from './embedded/sessions.js';
import { LRUCache } from 'lru-cache';
import { appError, ErrorCode } from '../graphql/errors.js';
import { hasVerifiedFactor } from './assurance.js';
import { IdentityClient, IdentityError } from './identity.client.js';
import { createTokenVerifier, TokenVerificationError } from './token-verifier.js';
import type { FactorLookup, TokenVerifier } from './token-verifier.js';

/** Identity as the rest of the server sees it. */
export interface Identity {
  mode: Config['identity']['mode'];
  client: IdentityClient;
  verifier: TokenVerifier;
  /** The embedded service's keys (embedded mode only). */
  embeddedKeys: IdentityKeys | undefined;
  /** The Redis connection the rate limits and visit counts of every instance share, when REDIS_URL is set. */
  redis: Redis | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    identity: Identity;
  }
}

/** The address this process answers itself on: the listening port on loopback, whatever HOST is. */
function ownOrigin(config: Config): string {
  const loopback = ['0.0.0.0', '::', '127.0.0.1', 'localhost'].includes(config.host);
  const host = loopback ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}

/** How often the embedded service deletes expired tokens and outbox messages. */
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/** Once listening, and hourly across every instance: deletes what the embedded service can no longer use. */
function startPruning(app: FastifyInstance, config: Config, dataSource: DataSource): void {
  scheduleJob(app, dataSource, {
    name: 'identity-prune',
    intervalMs: PRUNE_INTERVAL_MS,
    run: async () => {
      const report = await pruneExpired(dataSource, config.auth);
      app.log.debug(report, 'identity: expired tokens and outbox messages deleted');
    },
  });
}

/** How long a hosted member's "has a verified factor" answer is kept (P3: no round trip per request). */
const HOSTED_FACTOR_TTL_MS = 30 * 1000;

/**
 * Hosted mode's answer to "has this member a verified factor", asked only for aal1 tokens: the
 * project's own `GET /user` with the member's token, kept 30 seconds per member (a factor turned on
 * elsewhere counts within that time). An outage refuses (IDENTITY_UNAVAILABLE), never lets through.
 */
function hostedFactorLookup(client: IdentityClient): FactorLookup {
  const known = new LRUCache<string, boolean>({ max: 10_000, ttl: HOSTED_FACTOR_TTL_MS });
  return async (userId, accessToken) => {
    const cached = known.get(userId);
    if (cached !== undefined) return cached;
    let user;
    try {
      user = await client.getUser(accessToken);
    } catch (error) {
      if (!(error instanceof IdentityError)) throw error;
      if (error.status < 500) throw new TokenVerificationError('invalid', 'The identity service refused this token');
      throw appError(ErrorCode.IDENTITY_UNAVAILABLE, 'Accounts are unavailable for a moment; try again.');
    }
    const verified = hasVerifiedFactor(user);
    known.set(userId, verified);
    return verified;
  };
}

/** How long start-up waits for Redis before going on without it (rate limits then stay local). */
const REDIS_CONNECT_WAIT_MS = 2000;

/**
 * Waits until Redis answers, fails, or the wait is over: without an offline queue, commands sent
 * before the connection is up fail, so the first requests would see Redis as unreachable.
 */
async function firstConnection(redis: Redis): Promise<void> {
  await new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, REDIS_CONNECT_WAIT_MS);
    redis.once('ready', done);
    redis.once('error', done);
  });
}

/**
 * Sets identity up: in embedded mode mounts the Supabase-Auth-compatible service at /auth/v1 and
 * points supabase-js at this process (reached in-process unless `fetch` is given); in hosted mode
 * points it at SUPABASE_URL. Decorates the app with `identity` (client, token verifier, embedded keys).
 */
export async function mountIdentity(
  app: FastifyInstance,
  config: Config,
  dataSource: DataSource,
  options: {
    /** The HTTP client for identity calls (default: in-process in embedded mode, else the network). */
    fetch?: typeof fetch;
    background?: boolean;
    /** The app's mailer, which the embedded service sends through too. */
    mailer?: IdentityContext['mailer'];
  } = {},
): Promise<Identity> {
  let identity: Identity;
  // In both modes: the app's own limits (sign-ins, uploads, drawings, reports) and visit counts are
  // shared through it. The client is loaded only when Redis is configured: a single instance never needs it.
  const redis =
    config.redisUrl === undefined
      ? undefined
      : new (await import('ioredis')).Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  if (redis) {
    redis.on('error', (error: unknown) => {
      app.log.warn({ err: error }, 'redis error; rate limits fall back to this process');
    });
    app.addHook('onClose', () => {
      redis.disconnect();
    });
    await firstConnection(redis);
  }
  if (config.identity.mode === 'embedded') {
    const { plugin, keys } = await prepareEmbeddedIdentity(app, config, dataSource, redis, options.mailer);
    await app.register(plugin, { prefix: '/auth/v1' });
    const ownCalls = options.fetch ?? (await internalIdentityFetch(app, config, plugin));
    if (options.background ?? true) startPruning(app, config, dataSource);
    identity = {
      mode: 'embedded',
      client: new IdentityClient({
        url: ownOrigin(config),
        anonKey: keys.anonKey,
        serviceRoleKey: keys.serviceRoleKey,
        fetch: app.metrics.timedFetch(ownCalls),
        recoveryCodes: true,
      }),
      verifier: createTokenVerifier(config, { keys, sessionAlive: sessionLiveness(dataSource) }),
      embeddedKeys: keys,
      redis,
    };
  } else {
    const { url, anonKey, serviceRoleKey } = config.identity;
    if (url === undefined || anonKey === undefined || serviceRoleKey === undefined) {
      throw new Error('hosted identity needs SUPABASE_URL and both keys');
    }
    const client = new IdentityClient({
      url,
      anonKey,
      serviceRoleKey,
      fetch: app.metrics.timedFetch(options.fetch ?? fetch),
    });
    identity = {
      mode: 'hosted',
      client,
      verifier: createTokenVerifier(config, undefined, { verifiedFactor: hostedFactorLookup(client) }),
      embeddedKeys: undefined,
      redis,
    };
  }
  app.decorate('identity', identity);
  return identity;
}
