import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';

const READY_TIMEOUT_MS = 2000;

/** `/healthz`: the process answers. `/readyz`: and its database answers too. */
export function registerHealthRoutes(app: FastifyInstance, dataSource: DataSource): void {
  app.get('/healthz', () => Promise.resolve({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        dataSource.query('SELECT 1'),
        new Promise((_resolve, reject) => {
          timer = setTimeout(() => {
            reject(new Error('database timed out'));
          }, READY_TIMEOUT_MS);
        }),
      ]);
      return { status: 'ready', database: 'ok' };
    } catch (error) {
      reply.log.warn({ err: error }, 'readiness check failed');
      return await reply.code(503).send({ status: 'unavailable', database: 'unreachable' });
    } finally {
      clearTimeout(timer);
    }
  });
}
