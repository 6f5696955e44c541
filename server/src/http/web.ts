import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Paths the web app never owns: unknown ones under these stay JSON 404s. */
const API_PREFIXES = ['/graphql', '/auth/', '/webhooks/', '/healthz', '/readyz'];

/**
 * Serves the production build of the web app: hashed assets cached for a year, `index.html`
 * never cached, and every other page path answered with `index.html` for the client router.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ distDir }, 'no web build found; run `npm run build` to serve the web app');
    return;
  }

  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    setHeaders: (reply, filePath) => {
      const immutable = filePath.startsWith(path.join(distDir, 'assets') + path.sep);
      reply.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !API_PREFIXES.some((prefix) => pathname.startsWith(prefix)) &&
      !path.extname(pathname);
    if (!wantsPage) {
      return reply.code(404).send({ error: 'Not Found', message: `No route for ${request.method} ${pathname}` });
    }
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
}
