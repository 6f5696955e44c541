import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import { sqliteWritableCheck } from '../db/sqlite-guard.js';
import { sqliteWriteProbe } from '../db/sqlite-serial.js';

const READY_TIMEOUT_MS = 2000;

/** Races `check` against the readiness deadline. */
async function within<T>(check: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      check,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
          reject(new Error(`${what} timed out`));
        }, READY_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `/healthz`: the process answers. `/readyz`: and its database answers too (else 503), with the
 * release that runs (`version`, `commit`: null when unknown) in every answer; on SQLite,
 * whose reads go on while another process holds the write lock, it must be writable (its files
 * too: `database: 'read-only'` when they are not). With Redis
 * configured it is reported as well, without failing readiness: rate limits fall back to each
 * instance's own counts while it is away.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  dataSource: DataSource,
  redis?: { ping(): Promise<unknown> },
  release: { version: string; commit: string | null } = { version: 'unknown', commit: null },
): void {
  app.get('/healthz', () => Promise.resolve({ status: 'ok' }));
  const databaseCheck = sqliteWriteProbe(dataSource) ?? (() => dataSource.query('SELECT 1'));
  const filesWritable = sqliteWritableCheck(dataSource);

  app.get('/readyz', async (_request, reply) => {
    const redisState = redis
      ? await within(redis.ping(), 'redis').then(
          () => 'ok' as const,
          (error: unknown) => {
            reply.log.warn({ err: error }, 'readiness: redis unreachable');
            return 'unreachable' as const;
          },
        )
      : undefined;
    const extra = {
      ...(redisState === undefined ? {} : { redis: redisState }),
      version: release.version,
      commit: release.commit,
    };
    try {
      filesWritable?.();
    } catch (error) {
      reply.log.warn({ err: error }, 'readiness check failed: the database files cannot be written');
      return await reply.code(503).send({ status: 'unavailable', database: 'read-only', ...extra });
    }
    try {
      await within(databaseCheck(), 'database');
    } catch (error) {
      reply.log.warn({ err: error }, 'readiness check failed');
      return await reply.code(503).send({ status: 'unavailable', database: 'unreachable', ...extra });
    }
    return { status: redisState === 'unreachable' ? 'degraded' : 'ready', database: 'ok', ...extra };
  });
}
