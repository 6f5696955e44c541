import Fastify, { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyInstance, FastifyPluginCallback, InjectOptions } from 'fastify';
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

/** What `inject` needs of a request. */
interface Call {
  method: string;
  /** Path and query. */
  path: string;
  headers: Record<string, string>;
  payload: Buffer | string | undefined;
}

/**
 * The call supabase-js makes, read straight from `fetch(url, init)`: a URL, a method, headers as a
 * record or `Headers`, a string body. Building an undici `Request` from it, only to take it apart
 * again, was most of this hop's cost at sign-in. Anything else (a `Request`, a stream body) returns
 * undefined and goes through `Request`.
 */
function plainCall(input: Parameters<typeof fetch>[0], init: RequestInit | undefined): Call | undefined {
  if (typeof input !== 'string' && !(input instanceof URL)) return undefined;
  const body = init?.body;
  if (body != null && typeof body !== 'string' && !(body instanceof Uint8Array)) return undefined;
  const { pathname, search } = typeof input === 'string' ? new URL(input) : input;
  const headers: Record<string, string> = {};
  const given = init?.headers;
  const entries =
    given === undefined
      ? []
      : given instanceof Headers || Array.isArray(given)
        ? new Headers(given)
        : Object.entries(given);
  for (const [name, value] of entries as Iterable<[string, string | undefined]>) {
    if (value === undefined) continue;
    // As `Headers` joins a name given twice in different cases.
    const key = name.toLowerCase();
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
  }
  if (typeof body === 'string' && headers['content-type'] === undefined) {
    headers['content-type'] = 'text/plain;charset=UTF-8';
  }
  return {
    method: (init?.method ?? 'GET').toUpperCase(),
    path: `${pathname}${search}`,
    headers,
    payload: body == null ? undefined : typeof body === 'string' ? body : Buffer.from(body),
  };
}

/** Any other fetch input, through undici's `Request`. */
async function requestCall(request: Request): Promise<Call> {
  const url = new URL(request.url);
  return {
    method: request.method,
    path: `${url.pathname}${url.search}`,
    headers: Object.fromEntries(request.headers),
    payload: request.body === null ? undefined : Buffer.from(await request.arrayBuffer()),
  };
}

/**
 * A fetch that hands each request to `server` inside this process (Fastify's `inject`): the same
 * HTTP contract, without a socket. Only the path and query of the URL count.
 */
export function inProcessFetch(server: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const call = plainCall(input, init) ?? (await requestCall(new Request(input, init)));
    const injected = server.inject({
      method: call.method as InjectOptions['method'],
      url: call.path,
      headers: call.headers,
      payload: call.payload,
    });
    // The caller's own signal (a Request's copy would follow it only while the Request lives).
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const response = await abortable(injected, signal);
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, String(item));
    }
    const empty = NULL_BODY_STATUSES.has(response.statusCode) || call.method === 'HEAD';
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
 * only when the services are, after the app's in-flight requests are done (Fastify runs `onClose`
 * hooks after that). It is built at the first call, not at start: a start that serves reads never
 * needs it, and building it was ~1.5% of a start's CPU (quality.md P9). The listening server
 * registers the same plugin at start, so a plugin that cannot be registered still stops the start.
 */
export function internalIdentityFetch(
  log: FastifyBaseLogger,
  config: Config,
  plugin: FastifyPluginCallback,
  onClose: (close: () => Promise<void>) => void,
): typeof fetch {
  let built: Promise<FastifyInstance> | undefined;
  let calls: Promise<typeof fetch> | undefined;
  const build = async (): Promise<FastifyInstance> => {
    const server = Fastify({
      loggerInstance: log,
      logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
      ...sharedServerOptions(config),
    });
    await server.register(plugin, { prefix: '/auth/v1' });
    await server.ready();
    return server;
  };
  onClose(async () => {
    const server = await built?.catch(() => undefined);
    await server?.close();
  });
  return async (input, init) => {
    calls ??= (built = build()).then(inProcessFetch, (error: unknown) => {
      // The next call tries again rather than failing for the rest of the process's life.
      calls = undefined;
      throw error;
    });
    return (await calls)(input, init);
  };
}
