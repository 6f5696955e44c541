import type { FastifyInstance } from 'fastify';
import { matchesEtag, strongEtag } from './answer-headers.js';

/**
 * The schema changes only with a release: an hour in a cache, then a revalidation that costs a 304.
 * Readable by pages on any origin: it is the published contract, the same as schema.graphql.
 */
const SCHEMA_CACHE = 'public, max-age=3600, must-revalidate';
/** Plain text, so that a browser shows it; GraphQL tools read it whatever its type. */
const SCHEMA_TYPE = 'text/plain; charset=utf-8';

/**
 * `/schema.graphql`: the schema this server answers, in SDL, printed as `npm run schema` prints
 * the committed file, with a strong ETag. Served even where introspection is off: every field in
 * it is documented anyway, and clients generate their types from it.
 */
export function registerSchemaRoute(app: FastifyInstance, printSdl: () => string): void {
  // Printed at the first request, not at start: sorting and printing the schema is start-up work
  // (quality.md P9) for a route few ever ask for.
  let printed: { sdl: string; etag: string } | undefined;
  app.get('/schema.graphql', (request, reply) => {
    if (!printed) {
      const sdl = printSdl();
      printed = { sdl, etag: strongEtag(sdl, SCHEMA_TYPE) };
    }
    const { sdl, etag } = printed;
    void reply
      .type(SCHEMA_TYPE)
      .header('cache-control', SCHEMA_CACHE)
      .header('etag', etag)
      .header('access-control-allow-origin', '*');
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.send(sdl);
  });
}
