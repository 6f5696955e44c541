import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';

/**
 * TRUST_PROXY as Fastify's `trustProxy` option. A hop count becomes the function Fastify itself
 * builds from a number (its types accept no number): believe that many proxies nearest the server.
 */
export function fastifyTrustProxy(value: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (typeof value !== 'number') return value;
  return (_address: string, hop: number) => hop < value;
}
