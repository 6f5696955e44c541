import type { FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { IdentityContext } from './context.js';
import type { IdentityLimits } from './rate-limits.js';
import type { Authenticated } from './request.js';
import type { ClientInfo } from './sessions.js';

/** What every handler gets: the service's context and the caller's address and user agent. */
export interface RouteCall {
  context: IdentityContext;
  client: ClientInfo;
}

/** What a handler behind the `user` guard gets besides: the signed-in caller. */
export interface UserCall extends RouteCall {
  auth: Authenticated;
}

export type RouteHandler<C extends RouteCall = RouteCall> = (
  request: FastifyRequest,
  reply: FastifyReply,
  call: C,
) => Promise<unknown>;

/** The per-address limiter a route spends a point of before its handler runs. */
export type LimitBucket = Exclude<keyof IdentityLimits, 'email' | 'factorCodes' | 'accountSecrets'>;

interface RouteBase {
  method: HTTPMethods;
  path: string;
  limit?: LimitBucket;
}

/**
 * One endpoint of the service. The guard runs first (`user`: a valid token of an existing,
 * unbanned user; `admin`: a token of an admin role), then the rate limit, then the handler.
 */
export type IdentityRoute =
  | (RouteBase & { guard: 'none' | 'admin'; handler: RouteHandler })
  | (RouteBase & { guard: 'user'; handler: RouteHandler<UserCall> });
