import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { escapeHtml } from './html.js';

/** How long a client should wait before trying again after the database failed to answer. */
const RETRY_AFTER_SECONDS = 5;

/** Node's network error codes for a database that cannot be reached at all. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND']);

/** node-postgres's own errors (no code) for a connection that broke or could not be made in time. */
const PG_CONNECTION_LOST = /^(Connection terminated|timeout exceeded when trying to connect)/;

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
}

/**
 * True when the database, not the request, is at fault: PostgreSQL's connection, resource and
 * operator classes (08, 53, 57, 55000 "not accepting connections"), SQLite's busy, locked, I/O,
 * read-only, full, cannot-open and lock-protocol errors (with their extended codes, such as
 * SQLITE_BUSY_SNAPSHOT), a server that cannot be reached, and a connection lost mid-transaction.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  // What a query meets after its connection died in the middle of a transaction.
  if (error instanceof QueryRunnerAlreadyReleasedError) return true;
  const cause: unknown = error instanceof QueryFailedError ? error.driverError : error;
  if (cause instanceof Error && PG_CONNECTION_LOST.test(cause.message)) return true;
  const code = errorCode(cause);
  if (typeof code !== 'string') return false;
  return (
    /^(08|53|57)/.test(code) ||
    code === '55000' ||
    /^SQLITE_(BUSY|LOCKED|IOERR|READONLY|FULL|CANTOPEN|PROTOCOL)/.test(code) ||
    UNREACHABLE_CODES.has(code)
  );
}

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
