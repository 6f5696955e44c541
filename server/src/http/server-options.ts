import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';

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

/** The options every server of this process shares: who is believed about addresses, and the body limit. */
export function sharedServerOptions(config: Config): Pick<FastifyServerOptions, 'trustProxy' | 'bodyLimit'> {
  return { trustProxy: fastifyTrustProxy(config.trustProxy), bodyLimit: BODY_LIMIT_BYTES };
}
