import { IncomingMessage } from './node-http.js';
import type { ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { ApolloServerPlugin } from '@apollo/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OperationDefinitionNode } from 'graphql';
import { Kind, OperationTypeNode } from 'graphql';
import helmet from 'helmet';
import { addVary } from './answer-headers.js';

/** Where the tag manager and the analytics it loads live; allowed only when a container is configured. */
const TAG_MANAGER_SCRIPTS = ['https://www.googletagmanager.com'];
const TAG_MANAGER_CONNECTIONS = [
  'https://www.googletagmanager.com',
  'https://*.google-analytics.com',
  'https://*.analytics.google.com',
];

/** Browser features no Lampstand page uses; the copy-link button writes the clipboard from this origin. */
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'browsing-topics=()',
  'camera=()',
  'clipboard-write=(self)',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'payment=()',
  'usb=()',
].join(', ');

/**
 * The queries a page on any origin may read, without credentials: a church's site showing a
 * member's page or the verse of the day. Everything else answers only PUBLIC_URL and CORS_ORIGINS.
 */
const OPEN_QUERIES: ReadonlySet<string> = new Set(['profile', 'verse', 'verseOfTheDay', '__typename']);

/** Headers a browser may send to /graphql; a token only from the origins that may use one. */
const GRAPHQL_HEADERS = [
  'content-type',
  'apollo-require-preflight',
  'x-apollo-operation-name',
  'x-request-id',
  'traceparent',
];
const TRUSTED_HEADERS = [...GRAPHQL_HEADERS, 'authorization'];

/**
 * Answer headers a page may read besides the safelisted ones: revalidation, when to retry, and the
 * request's id (http/answer-headers.ts, http/rate-limit-headers.ts, http/request-trace.ts).
 */
const EXPOSED_HEADERS = [
  'etag',
  'retry-after',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'ratelimit-policy',
  'x-request-id',
  'traceparent',
];

/** The CORS headers of an open query's answer to a page on any origin. */
export const OPEN_ANSWER_HEADERS: readonly (readonly [string, string])[] = [
  ['access-control-allow-origin', '*'],
  ['access-control-expose-headers', EXPOSED_HEADERS.join(', ')],
];

/** Paths whose services answer CORS themselves (the identity service follows Supabase Auth's rules). */
const OWN_CORS_PREFIXES = ['/auth/'];

export interface SecurityOptions {
  production: boolean;
  /** The site's own address; its origin may call every API. */
  publicUrl: string;
  /** More origins that may call every API (CORS_ORIGINS). */
  corsOrigins: readonly string[];
  /** Whether pages may load the tag manager (a container is configured). */
  tagManager: boolean;
}

/**
 * The policy of the pages other sites may frame (embeds/): any site may put them in a frame, and
 * they load nothing but their own images and inline styles (no scripts, no forms, no analytics).
 */
function framablePolicy(siteOrigin: string): string {
  return [
    "default-src 'none'",
    // A sandboxed frame has no origin of its own: the site's address is named as well as 'self'.
    `img-src 'self' ${siteOrigin} data:`,
    "style-src 'unsafe-inline'",
    "base-uri 'none'",
    "form-action 'none'",
    'frame-ancestors *',
  ].join('; ');
}

/**
 * Lets any site frame this answer: its own Content-Security-Policy instead of the site's (whose
 * `frame-ancestors 'none'` and `X-Frame-Options: DENY` every other answer keeps). Only the embed
 * routes call it, and it is called per answer, so no other path can be framed by mistake.
 */
export function allowFraming(reply: FastifyReply, siteOrigin: string): FastifyReply {
  return reply
    .removeHeader('x-frame-options')
    .header('content-security-policy', framablePolicy(siteOrigin))
    .header('cross-origin-resource-policy', 'cross-origin');
}

/** Decides whether a browser origin may call every API, not just the open queries. */
export function trustedOrigins(
  options: Pick<SecurityOptions, 'publicUrl' | 'corsOrigins'>,
): (origin: string) => boolean {
  const trusted = new Set([new URL(options.publicUrl).origin, ...options.corsOrigins]);
  return (origin) => trusted.has(origin);
}

function pathOf(request: FastifyRequest): string {
  return request.url.split('?', 1)[0] ?? '/';
}

/**
 * What helmet's middleware does to every response, recorded once by running it on a stand-in: its
 * headers depend on nothing of the request (no nonces, no directive computed per request), so each
 * request sets the recorded headers instead of going through helmet's dozen chained middlewares,
 * about a twentieth of a profile read's main thread when profiled (issue 32). They are returned
 * as Fastify's reply headers (names in lower case, as Fastify keeps them), in helmet's order.
 */
function fixedHeaders(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers.set(name.toLowerCase(), String(value));
      return recorder;
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
  };
  const run = { finished: false };
  // helmet 8 throws instead of passing errors on, so its callback only says it is done.
  middleware(new IncomingMessage(new Socket()), recorder as unknown as ServerResponse, () => {
    run.finished = true;
  });
  // A middleware that answered later (or never) would depend on the request: replaying would be wrong.
  if (!run.finished) throw new Error('helmet did not finish at once: its headers cannot be recorded');
  return Object.fromEntries(headers);
}

/** The API's one path: its JSON answers carry an API's security headers, not a document's. */
const API_PATH = '/graphql';

function isApiPath(url: string): boolean {
  return url.startsWith(API_PATH) && (url.length === API_PATH.length || url[API_PATH.length] === '?');
}

/** JSON as the API answers it (`application/json`, `application/graphql-response+json`). */
const JSON_TYPE = /^application\/(?:graphql-response\+)?json\b/i;

type OnSendDone = (error: null, payload: unknown) => void;

/** A JSON answer's policy: nothing may load in it, and no page may frame it. */
const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * The security headers of a JSON answer, as OWASP's REST Security Cheat Sheet lists them: no
 * sniffing, no framing (`frame-ancestors 'none'` and `X-Frame-Options`), HTTPS only, and no
 * cross-origin `no-cors` loads of the answer (CORP); the policy also lets nothing load, should a
 * browser ever show the JSON as a document. The rest (the page's CSP, Permissions-Policy, COOP,
 * Origin-Agent-Cluster, the referrer and the older headers for documents) speaks to documents
 * only, and was ~0.9 KB of each answer, written by node:http and parsed by every client.
 * Cache-Control and Content-Type are the answer's own (http/answer-headers.ts).
 */
function apiAnswerHeaders(documentHeaders: Record<string, string>): Record<string, string> {
  const kept = new Set([
    'content-security-policy',
    'cross-origin-resource-policy',
    'strict-transport-security',
    'x-content-type-options',
    'x-frame-options',
  ]);
  return Object.fromEntries(
    Object.entries(documentHeaders)
      .filter(([name]) => kept.has(name))
      .map(([name, value]) => [name, name === 'content-security-policy' ? API_POLICY : value]),
  );
}

/**
 * Security headers on every response (a strict Content-Security-Policy, no framing, no sniffing,
 * a careful referrer, HSTS in production, few browser features; the API's JSON answers only those
 * that speak to them) and CORS for the API. Register it
 * before any route, so that every route and the not-found handler get them.
 */
export function registerSecurity(app: FastifyInstance, options: SecurityOptions): void {
  const tagScripts = options.tagManager ? TAG_MANAGER_SCRIPTS : [];
  const tagConnections = options.tagManager ? TAG_MANAGER_CONNECTIONS : [];
  // helmet's middleware is built once; @fastify/helmet built it again for every request (a twentieth
  // of the CPU of a profile read when profiled).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", ...tagScripts],
        // React and the playground's editor set inline styles; scripts stay strict.
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', ...tagScripts],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'", ...tagConnections],
        // The playground's editor runs its language services in workers built from blobs.
        'worker-src': ["'self'", 'blob:'],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        ...(options.production ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    hsts: options.production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  // Set as the reply's headers, not on Node's response one by one: when nothing is set on the
  // response itself, Node writes the reply's headers in one pass, without keeping and checking a
  // copy of each (setting them on the response was a tenth of a profile read's allocations).
  const securityHeaderValues = { 'permissions-policy': PERMISSIONS_POLICY, ...fixedHeaders(securityHeaders) };
  const apiHeaderValues = apiAnswerHeaders(securityHeaderValues);
  app.addHook('onRequest', (request, reply, done) => {
    void reply.headers(isApiPath(request.url) ? apiHeaderValues : securityHeaderValues);
    done();
  });
  // The rare answer of the API that is not JSON (a text refusal, an error page for a browser)
  // might be shown as a document: it gets a document's headers after all.
  app.addHook('onRoute', (route) => {
    if (route.url !== API_PATH) return;
    const documentHeaders = (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: OnSendDone) => {
      const type = reply.getHeader('content-type');
      if (typeof type === 'string' && !JSON_TYPE.test(type)) void reply.headers(securityHeaderValues);
      done(null, payload);
    };
    route.onSend = [documentHeaders, ...[route.onSend ?? []].flat()];
  });

  registerCors(app, trustedOrigins(options));
}

/** The CORS headers for one kind of caller, as @fastify/cors set them, made once. */
interface CorsRule {
  /** Access-Control-Allow-Origin: the caller's own origin (reflected) or `*`. */
  reflect: boolean;
  /** Headers after Access-Control-Allow-Origin on every answer. */
  answer: Record<string, string>;
  /** Headers after those on a preflight. */
  preflight: Record<string, string>;
}

/** A trusted origin: every API, the token included, and the answer headers a page may read. */
const TRUSTED_RULE: CorsRule = {
  reflect: true,
  answer: { 'access-control-expose-headers': EXPOSED_HEADERS.join(', ') },
  preflight: {
    'access-control-allow-methods': 'GET, POST',
    'access-control-allow-headers': TRUSTED_HEADERS.join(', '),
    'access-control-max-age': '600',
  },
};

/** Any other origin's preflight of /graphql: whether it may read the answer is decided per operation. */
const ANY_ORIGIN_RULE: CorsRule = {
  reflect: false,
  answer: {},
  preflight: {
    'access-control-allow-methods': 'GET, POST',
    'access-control-allow-headers': GRAPHQL_HEADERS.join(', '),
    'access-control-max-age': '600',
  },
};

/**
 * CORS for the API, header for header what @fastify/cors answered with a delegator (its rules as
 * they were: trusted origins may call everything, any origin may ask for a preflight of /graphql,
 * the identity service answers its own), with each kind of answer's headers made once: the plugin
 * copied its options twice for every request, ~4% of a public read's CPU when profiled (issue 32).
 * Every answer varies by `Origin`, as the plugin's delegator made it say.
 */
function registerCors(app: FastifyInstance, isTrusted: (origin: string) => boolean): void {
  app.addHook('onRequest', (request, reply, done) => {
    addOriginToVary(reply);
    const origin = request.headers.origin;
    if (origin === undefined) {
      done();
      return;
    }
    const path = pathOf(request);
    let rule: CorsRule | undefined;
    if (!OWN_CORS_PREFIXES.some((prefix) => path.startsWith(prefix))) {
      if (isTrusted(origin)) rule = TRUSTED_RULE;
      else if (path === '/graphql' && request.method === 'OPTIONS') rule = ANY_ORIGIN_RULE;
    }
    if (rule === undefined) {
      done();
      return;
    }
    // An empty Origin is reflected as nothing, as the plugin did.
    if (!rule.reflect) void reply.header('access-control-allow-origin', '*');
    else if (origin) void reply.header('access-control-allow-origin', origin);
    void reply.headers(rule.answer);
    if (request.method !== 'OPTIONS') {
      done();
      return;
    }
    if (!origin || !request.headers['access-control-request-method']) {
      void reply.status(400).type('text/plain').send('Invalid Preflight Request');
      return;
    }
    // The preflight is answered here, before any hook that could refuse it for want of a token.
    void reply.headers(rule.preflight).code(204).header('content-length', '0').send();
  });
  // A preflight the rules above do not answer is not found (the routes' own OPTIONS aside).
  app.options('*', (_request, reply) => {
    reply.callNotFound();
  });
}

/** Adds `Origin` to the answer's `Vary`: at once when nothing has set it (on `onRequest`, the usual case). */
function addOriginToVary(reply: FastifyReply): void {
  if (reply.getHeader('vary') === undefined) void reply.header('vary', 'Origin');
  else addVary(reply, ['Origin']);
}

/**
 * Whether pages on any origin may read the answer to `operation` from `origin`: a request from an
 * origin that is not trusted gets `Access-Control-Allow-Origin: *` only when every root field is open.
 */
export function readableByAnyOrigin(
  isTrusted: (origin: string) => boolean,
): (origin: string | undefined, operation: OperationDefinitionNode) => boolean {
  return (origin, operation) =>
    origin !== undefined &&
    !isTrusted(origin) &&
    operation.operation === OperationTypeNode.QUERY &&
    operation.selectionSet.selections.every(
      (selection) => selection.kind === Kind.FIELD && OPEN_QUERIES.has(selection.name.value),
    );
}

/** The CORS headers `operation`'s answer to `origin` needs: `OPEN_ANSWER_HEADERS` when readable by any origin, else none. */
export function openAnswerHeadersFor(
  isTrusted: (origin: string) => boolean,
): (origin: string | undefined, operation: OperationDefinitionNode) => [string, string][] {
  const readable = readableByAnyOrigin(isTrusted);
  return (origin, operation) =>
    readable(origin, operation) ? OPEN_ANSWER_HEADERS.map(([name, value]) => [name, value]) : [];
}

/** Lets pages on any origin read the answers of the open queries (see `readableByAnyOrigin`). */
export function openQueriesPlugin<TContext extends object>(
  isTrusted: (origin: string) => boolean,
): ApolloServerPlugin<TContext> {
  const readable = readableByAnyOrigin(isTrusted);
  return {
    requestDidStart() {
      return Promise.resolve({
        willSendResponse({ request, operation, response }) {
          if (operation && readable(request.http?.headers.get('origin'), operation)) {
            for (const [name, value] of OPEN_ANSWER_HEADERS) response.http.headers.set(name, value);
          }
          return Promise.resolve();
        },
      });
    },
  };
}
