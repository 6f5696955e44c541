import path from 'node:path';
import { z } from 'zod';
import type { SectionEnv, Shared } from './fields.js';
import { bool, origins, positive, seconds, trustProxy, url } from './fields.js';
import { projectRoot } from './root.js';

/** The process, its storage and its limits. */
export const serverEnv = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: url.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: trustProxy.default(false),
  DATA_DIR: z.string().min(1).optional(),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  SQLITE_FILE: z.string().min(1).optional(),
  WEB_DIST_DIR: z.string().min(1).optional(),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  CORS_ORIGINS: origins.optional(),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  GRAPHQL_INTROSPECTION: bool.default(true),
  GRAPHQL_LEAN_PUBLIC: bool.default(true),
  GRAPHQL_ANSWER_CACHE_MB: z.coerce.number().min(0).max(4096).default(32),
  HEAVY_THREADS: z.coerce.number().int().min(1).max(16).optional(),
  HEAVY_QUEUE: z.coerce.number().int().min(0).max(1000).default(16),
  RENDER_CACHE_MB: z.coerce.number().min(0).max(4096).default(32),
  RENDERS_PER_MINUTE: positive.default(20),
  PHOTO_UPLOADS_PER_HOUR: positive.default(10),
  RECONCILE_ON_START: bool.default(true),
  RECONCILE_GRACE_SECONDS: seconds.default(300),
};

export interface ServerSettings {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /**
   * Fastify's `trustProxy`: false, true, the number of proxy hops whose X-Forwarded-For is believed,
   * or the proxy addresses/CIDRs it is believed from.
   */
  trustProxy: boolean | number | string[];
  dataDir: string;
  database: { type: 'sqlite'; file: string } | { type: 'postgres'; url: string };
  webDistDir: string;
  /** The web app's server rendering (web/src/ssr.tsx's build): `dist-ssr/` beside the build, never served. */
  webSsrDir: string;
  redisUrl: string | undefined;
  /** Web origins besides PUBLIC_URL's that may call every API from a browser (public queries are open to all). */
  corsOrigins: string[];
  /** Where Prometheus reads `/metrics`, on HOST; none when undefined. Never the public port. */
  metricsPort: number | undefined;
  /**
   * `leanPublic`: queries (anonymous ones of public fields only) and the public mutations are
   * answered by the lean executor (graphql/public-executor.ts) instead of Apollo's pipeline, with the
   * same answers; the anonymous queries of cached fields are kept whole in up to `answerCacheMb` MB
   * (0: none kept).
   */
  graphql: { introspection: boolean; leanPublic: boolean; answerCacheMb: number };
  /**
   * Heavy work (photo decoding; card and QR drawing): at most `threads` at once (undefined: all
   * cores but one, at most four) and `queue` of each kind waiting, then 503; drawn images kept in `cacheMb` MB;
   * new drawings per client address per minute; photo uploads per member per hour.
   */
  heavy: {
    threads: number | undefined;
    queue: number;
    cacheMb: number;
    rendersPerMinute: number;
    uploadsPerHour: number;
  };
  /** Accounts vs identity repair once the server listens; it leaves accounts younger than the grace alone. */
  reconcile: { onStart: boolean; graceSeconds: number };
}

export function serverSettings(env: SectionEnv<typeof serverEnv>, shared: Shared): ServerSettings {
  if (env.NODE_ENV === 'production' && !env.PUBLIC_URL) {
    shared.problems.push('PUBLIC_URL: required in production (links in mail and checkout use it)');
  }
  const dataDir = path.resolve(projectRoot, env.DATA_DIR ?? 'data');
  const webDistDir = path.resolve(projectRoot, env.WEB_DIST_DIR ?? 'web/dist');
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    publicUrl: shared.publicUrl,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    dataDir,
    database: env.DATABASE_URL
      ? { type: 'postgres', url: env.DATABASE_URL }
      : { type: 'sqlite', file: path.resolve(dataDir, env.SQLITE_FILE ?? 'lampstand.sqlite') },
    webDistDir,
    webSsrDir: path.join(path.dirname(webDistDir), 'dist-ssr'),
    redisUrl: env.REDIS_URL,
    corsOrigins: env.CORS_ORIGINS ?? [],
    metricsPort: env.METRICS_PORT,
    graphql: {
      introspection: env.GRAPHQL_INTROSPECTION,
      leanPublic: env.GRAPHQL_LEAN_PUBLIC,
      answerCacheMb: env.GRAPHQL_ANSWER_CACHE_MB,
    },
    heavy: {
      threads: env.HEAVY_THREADS,
      queue: env.HEAVY_QUEUE,
      cacheMb: env.RENDER_CACHE_MB,
      rendersPerMinute: env.RENDERS_PER_MINUTE,
      uploadsPerHour: env.PHOTO_UPLOADS_PER_HOUR,
    },
    reconcile: { onStart: env.RECONCILE_ON_START, graceSeconds: env.RECONCILE_GRACE_SECONDS },
  };
}
