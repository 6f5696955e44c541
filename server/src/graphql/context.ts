import type { FastifyBaseLogger } from 'fastify';
import type { Loaders } from './loaders.js';

/** The verified caller of a request. */
export interface AuthUser {
  /** The identity user id (a UUID); also the key of the member's records. */
  id: string;
  email: string;
  /** The identity session the access token belongs to. */
  sessionId: string | null;
  /** The `stripeRole` claim of the token (`plus` for Plus members). */
  stripeRole: string | null;
  /** The raw access token, for calls made to the identity service on the caller's behalf. */
  accessToken: string;
}

/** What every resolver receives. Built by `createContext`, the same way in the server and in tests. */
export interface Context {
  user: AuthUser | null;
  loaders: Loaders;
  log: FastifyBaseLogger;
  /** The client's address (X-Forwarded-For only from trusted proxies), for per-address limits. */
  clientIp: string;
}

export function createContext(input: Context): Context {
  return { user: input.user, loaders: input.loaders, log: input.log, clientIp: input.clientIp };
}
