import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * A caller's own request id: letters, digits and `._:-`, at most 128 characters, so that it is safe
 * in a log line and a header. Anything else is ignored and a fresh id is made.
 */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** W3C Trace Context's `traceparent` at version 00: version, trace id, parent id, flags. */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_PARENT_ID = '0'.repeat(16);

/** A valid incoming `traceparent`, in parts. */
export interface TraceParent {
  traceId: string;
  parentId: string;
  flags: string;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value;
}

/** The caller's `x-request-id` when it is one we can log and echo, else undefined. */
export function incomingRequestId(headers: IncomingHttpHeaders): string | undefined {
  const value = single(headers['x-request-id'])?.trim();
  return value !== undefined && REQUEST_ID.test(value) ? value : undefined;
}

/** The caller's `traceparent` when it is valid (the all-zero ids are invalid), else undefined. */
export function incomingTraceParent(headers: IncomingHttpHeaders): TraceParent | undefined {
  const match = TRACEPARENT.exec(single(headers.traceparent)?.trim().toLowerCase() ?? '');
  if (!match?.[1] || !match[2] || !match[3]) return undefined;
  if (match[1] === ZERO_TRACE_ID || match[2] === ZERO_PARENT_ID) return undefined;
  return { traceId: match[1], parentId: match[2], flags: match[3] };
}

/**
 * Fastify's `genReqId`: the caller's `x-request-id`, else the trace id of its `traceparent`, else a
 * fresh UUID. Every log line of the request carries it, and the answer echoes it.
 */
export function requestIdOf(request: IncomingMessage): string {
  return incomingRequestId(request.headers) ?? incomingTraceParent(request.headers)?.traceId ?? randomUUID();
}

/** `traceparent` as it is echoed in the answer: the caller's own, normalised. */
export function formatTraceParent(trace: TraceParent): string {
  return `00-${trace.traceId}-${trace.parentId}-${trace.flags}`;
}

/**
 * Echoes each request's id as `x-request-id` (every log line of the request and an error's body
 * carry it too) and a valid `traceparent` as it came. Hooks on every request take a callback: an
 * async hook costs a promise and a turn of the queue.
 */
export function registerRequestTrace(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    const trace = request.headers.traceparent === undefined ? undefined : incomingTraceParent(request.headers);
    if (trace) void reply.header('traceparent', formatTraceParent(trace));
    done();
  });
}

interface RequestTrace {
  requestId: string;
  trace: TraceParent | undefined;
  /** When the calls the request makes to other services must have ended, on `performance.now()`'s clock. */
  endsAt: number | undefined;
}

const traces = new AsyncLocalStorage<RequestTrace>();
const NO_TRACE: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Runs `work` for a request: calls it makes to other services carry its id and trace
 * (`traceHeaders`), and end by `endsAt` when one is given (`requestDeadline`). One context for
 * both, as every GraphQL request runs in it: each context entered copies the request's async
 * context.
 */
export function withRequestTrace<T>(
  request: { id: string; headers: IncomingHttpHeaders },
  work: () => T,
  endsAt?: number,
): T {
  return traces.run({ requestId: request.id, trace: incomingTraceParent(request.headers), endsAt }, work);
}

/** When the running request's calls to other services must have ended (see `withRequestTrace`), or undefined. */
export function requestDeadline(): number | undefined {
  return traces.getStore()?.endsAt;
}

/**
 * The headers an outgoing call made for the running request carries: its `x-request-id`, and a
 * `traceparent` continuing the caller's trace (same trace id and flags, a new parent id for this
 * hop). Empty outside a request.
 */
export function traceHeaders(): Readonly<Record<string, string>> {
  const current = traces.getStore();
  if (!current) return NO_TRACE;
  const headers: Record<string, string> = { 'x-request-id': current.requestId };
  if (current.trace) {
    headers.traceparent = formatTraceParent({ ...current.trace, parentId: randomBytes(8).toString('hex') });
  }
  return headers;
}

/** `headers` (any form fetch takes) with `extra` set over them. */
function withHeaders(headers: RequestInit['headers'], extra: Readonly<Record<string, string>>): RequestInit['headers'] {
  if (headers === undefined) return extra;
  if (!(headers instanceof Headers) && !Array.isArray(headers)) return { ...headers, ...extra };
  const merged = new Headers(headers);
  for (const [name, value] of Object.entries(extra)) merged.set(name, value);
  return merged;
}

/** `base` (the global fetch when undefined, looked up at each call) sending `traceHeaders` with every request. */
export function tracedFetch(base?: typeof fetch): typeof fetch {
  return (input, init) => {
    const trace = traceHeaders();
    const send = base ?? fetch;
    if (trace === NO_TRACE) return send(input, init);
    return send(input, { ...init, headers: withHeaders(init?.headers, trace) });
  };
}
