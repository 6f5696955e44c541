import { STATUS_CODES } from './node-http.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors.js';
import { escapeHtml } from './html.js';

/** How long a client should wait before trying again after the database failed to answer. */
const RETRY_AFTER_SECONDS = 5;

/** A page for people, in the site's plain style, when a page cannot be built right now. */
function unavailablePage(status: number, requestId: string): string {
  const title = status === 503 ? 'Lampstand is briefly unavailable' : 'Something went wrong';
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(title)}</title>
  </head>
  <body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem">
    <h1>${escapeHtml(title)}</h1>
    <p>Please try again in a moment.</p>
    <p><small>Reference: ${escapeHtml(requestId)}</small></p>
  </body>
</html>
`;
}

function wantsPage(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') && (request.headers.accept ?? '').includes('text/html')
  );
}

/**
 * One answer for every failed HTTP request outside GraphQL and the identity service (which have
 * their own coded errors): a client's mistake keeps Fastify's status and message; anything else
 * is logged with its stack and answered without internals, 503 when the database is at fault.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const clientStatus =
      typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500
        ? error.statusCode
        : undefined;
    if (clientStatus !== undefined) {
      return reply.code(clientStatus).send({
        statusCode: clientStatus,
        code: error.code,
        error: STATUS_CODES[clientStatus] ?? 'Bad Request',
        message: error.message,
        requestId: request.id,
      });
    }
    const unavailable = isDatabaseUnavailable(error);
    const status = unavailable ? 503 : 500;
    request.log.error({ err: error }, unavailable ? 'database unavailable' : 'request failed');
    if (unavailable) void reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    void reply.code(status).header('cache-control', 'no-store');
    if (wantsPage(request)) return reply.type('text/html; charset=utf-8').send(unavailablePage(status, request.id));
    return reply.send({
      statusCode: status,
      code: unavailable ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_SERVER_ERROR',
      error: unavailable ? 'Service Unavailable' : 'Internal Server Error',
      message: unavailable
        ? 'The service is briefly unavailable. Please try again in a moment.'
        : 'Something went wrong on our side. Please try again.',
      // Names the log lines of this request, for whoever reports the failure.
      requestId: request.id,
    });
  });
}
