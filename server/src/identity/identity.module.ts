import type { FastifyPluginCallback } from 'fastify';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { Config } from '../config.js';
import type { FeatureModule, Kernel, Services } from '../kernel/feature-module.js';
import { AuthSessionRecord, identityEntities } from './embedded/entities.js';
import { internalIdentityFetch } from './embedded/in-process.js';
import type { IdentityKeys } from './embedded/keys.js';
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
  /** The embedded service's sessions (embedded mode only). */
  sessions: EmbeddedSessions | undefined;
  /** The embedded service's routes, mounted at /auth/v1 by the server that listens (embedded mode only). */
  routes: FastifyPluginCallback | undefined;
}

declare module '../kernel/feature-module.js' {
  interface Services {
    identity: Identity;
  }
  interface FeatureOptions {
    /** The HTTP client for identity calls (tests wrap it to inject failures at the HTTP boundary). */
    identityFetch?: typeof fetch;
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

/** The embedded service's sessions, which are in our database (a hosted service keeps its own). */
export interface EmbeddedSessions {
  /** An account's sessions, oldest first. */
  list: (uid: string) => Promise<
    {
      id: string;
      userAgent: string | null;
      ip: string | null;
      createdAt: Date;
      updatedAt: Date;
      refreshedAt: Date | null;
    }[]
  >;
  /** Ends every session of an account at once; how many there were. */
  end: (uid: string) => Promise<number>;
}

function embeddedSessions(dataSource: DataSource): EmbeddedSessions {
  const sessions = dataSource.getRepository(AuthSessionRecord);
  return {
    list: async (uid) =>
      (await sessions.find({ where: { userId: uid }, order: { createdAt: 'ASC' } })).map((session) => ({
        id: session.id,
        userAgent: session.userAgent,
        ip: session.ip,
        createdAt: session.createdAt,
        updatedAt: session.updatedAt,
        refreshedAt: session.refreshedAt,
      })),
    end: async (uid) => (await sessions.delete({ userId: uid })).affected ?? 0,
  };
}

/** The Redis connection every instance shares, when REDIS_URL is set; closed with the services. */
async function connectRedis(kernel: Kernel): Promise<Redis | undefined> {
  // The client is loaded only when Redis is configured: a single instance never needs it.
  if (kernel.config.redisUrl === undefined) return undefined;
  const redis = new (await import('ioredis')).Redis(kernel.config.redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
  });
  redis.on('error', (error: unknown) => {
    kernel.log.warn({ err: error }, 'redis error; rate limits fall back to this process');
  });
  kernel.onClose(() => {
    redis.disconnect();
  });
  await firstConnection(redis);
  return redis;
}

/**
 * Sets identity up: in embedded mode readies the Supabase-Auth-compatible service (answering
 * supabase-js in-process unless `identityFetch` is given; the server that listens mounts it at
 * /auth/v1); in hosted mode points supabase-js at SUPABASE_URL.
 */
async function buildIdentity(kernel: Kernel): Promise<Pick<Services, 'identity'>> {
  const { config, dataSource, metrics } = kernel;
  const given = kernel.options.identityFetch;
  // In both modes: the app's own limits (sign-ins, uploads, drawings, reports) and visit counts are shared through it.
  const redis = await connectRedis(kernel);
  if (config.identity.mode === 'embedded') {
    const { plugin, keys } = await prepareEmbeddedIdentity(config, dataSource, kernel.mailer, redis);
    const ownCalls = given ?? internalIdentityFetch(kernel.log, config, plugin, kernel.onClose);
    const identity: Identity = {
      mode: 'embedded',
      client: new IdentityClient({
        url: ownOrigin(config),
        anonKey: keys.anonKey,
        serviceRoleKey: keys.serviceRoleKey,
        fetch: metrics.timedFetch(ownCalls),
        recoveryCodes: true,
      }),
      verifier: createTokenVerifier(config, { keys, sessionAlive: sessionLiveness(dataSource) }),
      embeddedKeys: keys,
      redis,
      sessions: embeddedSessions(dataSource),
      routes: plugin,
    };
    return { identity };
  }
  const { url, anonKey, serviceRoleKey } = config.identity;
  if (url === undefined || anonKey === undefined || serviceRoleKey === undefined) {
    throw new Error('hosted identity needs SUPABASE_URL and both keys');
  }
  const client = new IdentityClient({ url, anonKey, serviceRoleKey, fetch: metrics.timedFetch(given ?? fetch) });
  const identity: Identity = {
    mode: 'hosted',
    client,
    verifier: createTokenVerifier(config, undefined, { verifiedFactor: hostedFactorLookup(client) }),
    embeddedKeys: undefined,
    redis,
    sessions: undefined,
    routes: undefined,
  };
  return { identity };
}

/** Identity, the ground floor every account feature stands on; the one place that knows its mode. */
export const identityModule: FeatureModule = {
  name: 'identity',
  entities: identityEntities,
  build: buildIdentity,
  routes: async (server, { identity }) => {
    if (identity.routes) await server.register(identity.routes, { prefix: '/auth/v1' });
  },
  // Hourly across every instance: deletes what the embedded service can no longer use.
  jobs: ({ identity }, { config, dataSource, log }) =>
    identity.mode !== 'embedded'
      ? []
      : [
          {
            name: 'identity-prune',
            intervalMs: PRUNE_INTERVAL_MS,
            run: async () => {
              const report = await pruneExpired(dataSource, config.auth);
              log.debug(report, 'identity: expired tokens and outbox messages deleted');
            },
          },
        ],
};
