import type { FastifyInstance } from 'fastify';

/**
 * Once the app starts closing, every answer asks its client to close the connection. The requests
 * in flight when SIGTERM arrives finish, but their keep-alive connections would otherwise stay open
 * until the keep-alive timeout (72 s), and the server waits for every connection before it closes.
 */
export function registerDrain(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });
}
