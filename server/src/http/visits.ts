import type { FastifyRequest } from 'fastify';
import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';

/** Who sent a request, as far as counting needs: never kept, only hashed with the day's key. */
export interface Visitor {
  address: string;
  userAgent: string;
}

/**
 * `isbot`'s verdicts on the user agents seen most: its one large pattern ran for every page read (~1.5%
 * of a kept page's CPU in P11), while a day's visitors send a few hundred distinct browsers. Longer
 * agents than any browser's are not kept, so odd ones cannot fill the memory.
 */
const botVerdicts = new LRUCache<string, boolean>({ max: 1000 });
const KEPT_AGENT_CHARS = 512;

function isBotAgent(userAgent: string): boolean {
  const known = botVerdicts.get(userAgent);
  if (known !== undefined) return known;
  const verdict = isbot(userAgent);
  if (userAgent.length <= KEPT_AGENT_CHARS) botVerdicts.set(userAgent, verdict);
  return verdict;
}

/** The headers browsers send with a prefetch or prerender, which no person has asked for yet. */
function isPrefetch(request: FastifyRequest): boolean {
  const headers = request.headers;
  const said = [headers['sec-purpose'], headers.purpose, headers['x-purpose'], headers['x-moz']];
  return said.some((value) => {
    const text = (Array.isArray(value) ? value.join(',') : (value ?? '')).toLowerCase();
    return text.includes('prefetch') || text.includes('prerender') || text.includes('preview');
  });
}

/**
 * The visitor of a request that counts as a person's visit, or null: a HEAD follows nothing, a
 * request without a user agent is a script's, and known bots (the `isbot` list) and prefetches
 * (`Sec-Purpose`, `Purpose`, `X-Purpose`, `X-Moz`) are nobody yet.
 */
export function countableVisitor(request: FastifyRequest): Visitor | null {
  const userAgent = request.headers['user-agent'];
  if (request.method !== 'GET' || !userAgent || isBotAgent(userAgent) || isPrefetch(request)) return null;
  return { address: request.ip, userAgent };
}
