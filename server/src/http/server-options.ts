import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';
import { lazyChildLogger } from './lazy-logger.js';
import { requestIdOf } from './request-trace.js';

/** Largest request body accepted anywhere (GraphQL documents, identity calls, webhooks). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * TRUST_PROXY as Fastify's `trustProxy` option. A hop count becomes the function Fastify itself
 * builds from a number (its types accept no number): believe that many proxies nearest the server.
 */
export function fastifyTrustProxy(value: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (typeof value !== 'number') return value;
  return (_address: string, hop: number) => hop < value;
}

/**
 * The options every server of this process shares: who is believed about addresses, the body limit,
 * request ids (the caller's `x-request-id` or trace id, so that the identity service's log lines
 * for a call carry the id of the request that made it), and request loggers made only when used.
 */
export function sharedServerOptions(
  config: Config,
): Pick<FastifyServerOptions, 'trustProxy' | 'bodyLimit' | 'genReqId' | 'childLoggerFactory'> {
  return {
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: requestIdOf,
    childLoggerFactory: lazyChildLogger,
  };
}
