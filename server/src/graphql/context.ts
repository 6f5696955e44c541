import type { FastifyBaseLogger } from 'fastify';

/** The verified caller of a request. */
export interface AuthUser {
  /** The identity user id (a UUID); also the key of the member's records. */
  id: string;
  email: string;
  /** The identity session the access token belongs to. */
  sessionId: string | null;
  /** The session's assurance level (`aal` claim): `aal2` once a second factor was verified in it. */
  aal: 'aal1' | 'aal2';
  /**
   * True when the member has a verified second factor and this session has not passed it (aal1):
   * then only the root fields marked `@AllowPartialSignIn()` answer (see graphql/auth.ts).
   */
  secondFactorPending: boolean;
  /**
   * When this session was last signed in by an emailed link or code (the latest `recovery`,
   * `invite`, `magiclink` or `otp` entry of its `amr` claim), or null when it never was.
   */
  emailLinkAt: Date | null;
  /** The `stripeRole` claim of the token (`plus` for Plus members). */
  stripeRole: string | null;
  /** The raw access token, for calls made to the identity service on the caller's behalf. */
  accessToken: string;
}

/**
 * One request's DataLoaders: relations resolve in batches, never one query per row. Each feature
 * adds its own loaders to this interface by module augmentation, next to their factory; the
 * composition root (app/loaders.ts) builds them all, so this kernel names no feature.
 */
export interface Loaders {
  /**
   * The members (uids) whose rows this request's loaders read, when they note them: what a kept
   * answer depends on beyond the tables whose every change empties the answer cache.
   */
  readonly membersRead?: ReadonlySet<string>;
}

/** What every resolver receives. Built by `createContext` (app/context.ts), the same way in the server and in tests. */
export interface Context {
  user: AuthUser | null;
  loaders: Loaders;
  log: FastifyBaseLogger;
  /** The client's address (X-Forwarded-For only from trusted proxies), for per-address limits. */
  clientIp: string;
}
