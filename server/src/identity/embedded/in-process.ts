import Fastify, { LogController } from 'fastify';
import type { FastifyInstance, FastifyPluginCallback, InjectOptions } from 'fastify';
import type { Config } from '../../config.js';
import { sharedServerOptions } from '../../http/server-options.js';

/** Statuses whose responses have no body (a Response refuses one). */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 204, 205, 304]);

/** Settles as `work` does, or rejects as fetch does once `signal` aborts (with its reason). */
function abortable<T>(work: Promise<T>, signal: AbortSignal | null | undefined): Promise<T> {
  if (!signal) return work;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted', { cause: signal.reason }));
    };
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => {
      signal.removeEventListener('abort', abort);
    });
  });
}

/**
 * A fetch that hands each request to `server` inside this process (Fastify's `inject`): the same
 * HTTP contract, without a socket. Only the path and query of the URL count.
 */
export function inProcessFetch(server: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const payload = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const injected = server.inject({
      method: request.method as InjectOptions['method'],
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(request.headers),
      payload,
    });
    // The caller's own signal: a Request's copy follows it only while the Request lives.
    const response = await abortable(injected, init?.signal ?? request.signal);
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, String(item));
    }
    const empty = NULL_BODY_STATUSES.has(response.statusCode) || request.method === 'HEAD';
    return new Response(empty ? null : new Uint8Array(response.rawPayload), {
      status: response.statusCode,
      statusText: response.statusMessage,
      headers,
    });
  };
}

/**
 * The embedded identity service a second time, on a Fastify instance that never listens, for this
 * process's own identity calls. On SIGTERM the public server stops taking requests (its port
 * closes, and requests on open connections get 503) while the requests in flight finish; a login
 * among them still needs the identity service, so its calls go here, and this instance is closed
 * only after the app's in-flight requests are done (Fastify runs `onClose` hooks after that).
 */
export async function internalIdentityFetch(
  app: FastifyInstance,
  config: Config,
  plugin: FastifyPluginCallback,
): Promise<typeof fetch> {
  const server = Fastify({
    loggerInstance: app.log,
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    ...sharedServerOptions(config),
  });
  await server.register(plugin, { prefix: '/auth/v1' });
  await server.ready();
  app.addHook('onClose', async () => server.close());
  return inProcessFetch(server);
}
