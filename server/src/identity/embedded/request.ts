import type { FastifyRequest } from 'fastify';
import type { JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import type { z } from 'zod';
import type { IdentityContext } from './context.js';
import { ADMIN_ROLES } from './context.js';
import { AuthSessionRecord, AuthUserRecord } from './entities.js';
import { AuthFactorRecord } from './factor-entities.js';
import type { RouteAssurance } from './route.js';
import { ApiError, forbidden, unprocessable } from './errors.js';
import { clientAddress } from './rate-limits.js';
import type { ClientInfo } from './sessions.js';
import { isUuid } from '../../rules/uuid.js';
import { isBanned, isNilUuid } from './users.js';

const BEARER = /^bearer (\S+)$/i;

/**
 * Reads a JSON body with a schema. Like Supabase Auth, unknown fields are ignored and a wrong
 * type is `400 bad_json`.
 */
export function readBody<T>(request: FastifyRequest, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(request.body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') ?? '';
  throw new ApiError(
    400,
    'bad_json',
    `Could not parse request body as JSON: ${field ? `${field}: ` : ''}${issue?.message ?? 'invalid'}`,
  );
}

/** The query parameter as a string ('' when absent). */
export function queryValue(request: FastifyRequest, name: string): string {
  const query = request.query as Record<string, unknown> | undefined;
  const value = query?.[name];
  return typeof value === 'string' ? value : '';
}

/**
 * Admin keys that passed, per key set, for at most ten minutes and never past their `exp`. This
 * server vouches for its callers' addresses with the service-role key on every identity call, and
 * checking that one key again each time was a WebCrypto job per sign-in. Keys that fail are not kept.
 */
const ADMIN_KEY_TTL_MS = 10 * 60 * 1000;
const knownAdminKeys = new WeakMap<IdentityContext['keys'], LRUCache<string, true>>();

/** Whether `apiKey` is a token of an admin role signed by one of the service's keys. */
export function serviceKeyCheck(context: IdentityContext): (apiKey: string) => Promise<boolean> {
  let known = knownAdminKeys.get(context.keys);
  if (!known) {
    known = new LRUCache<string, true>({ max: 16, ttl: ADMIN_KEY_TTL_MS });
    knownAdminKeys.set(context.keys, known);
  }
  const adminKeys = known;
  return async (apiKey) => {
    if (adminKeys.get(apiKey)) return true;
    try {
      const { payload } = await context.keys.verify(apiKey);
      const admin = typeof payload.role === 'string' && ADMIN_ROLES.includes(payload.role);
      // Until one second before `exp` (jose counts whole seconds).
      const ttl = Math.min(
        ADMIN_KEY_TTL_MS,
        payload.exp === undefined ? Infinity : payload.exp * 1000 - 1000 - Date.now(),
      );
      if (admin && ttl > 0) adminKeys.set(apiKey, true, { ttl });
      return admin;
    } catch {
      return false;
    }
  };
}

/** The client's address (see `clientAddress`) and user agent, recorded on sessions and used by limits. */
export async function clientInfo(request: FastifyRequest, context: IdentityContext): Promise<ClientInfo> {
  return { ip: await clientAddress(request, serviceKeyCheck(context)), userAgent: request.headers['user-agent'] };
}

function audHeader(request: FastifyRequest): string | undefined {
  const header = request.headers['x-jwt-aud'];
  return typeof header === 'string' && header !== '' ? header : undefined;
}

/**
 * The audience of a request that carries no admin token: the configured one. Supabase Auth takes
 * `X-JWT-AUD` from anyone, so a stranger could sign up `victim@…` in an audience the admin listing
 * never shows; here another audience is refused unless an admin asks (see `adminRequestAud`).
 */
export function requestAud(request: FastifyRequest, context: IdentityContext): string {
  const header = audHeader(request);
  if (header !== undefined && header !== context.audience) {
    throw forbidden('not_admin', 'X-JWT-AUD other than the default audience requires an admin (service_role) token');
  }
  return context.audience;
}

/** The audience of an admin request (only behind `requireAdmin`): `X-JWT-AUD`, else the configured one. */
export function adminRequestAud(request: FastifyRequest, context: IdentityContext): string {
  return audHeader(request) ?? context.audience;
}

async function verifiedClaims(request: FastifyRequest, context: IdentityContext): Promise<JWTPayload> {
  const match = BEARER.exec(request.headers.authorization ?? '');
  const token = match?.[1];
  if (token === undefined) {
    throw new ApiError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  }
  try {
    return (await context.keys.verify(token)).payload;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw forbidden('bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`);
  }
}

async function loadSession(context: IdentityContext, claims: JWTPayload): Promise<AuthSessionRecord | null> {
  const sessionId = claims.session_id;
  if (typeof sessionId !== 'string' || sessionId === '' || isNilUuid(sessionId)) return null;
  if (!isUuid(sessionId)) throw forbidden('bad_jwt', 'invalid claim: session_id claim must be a UUID');
  const session = await context.dataSource.manager.findOneBy(AuthSessionRecord, { id: sessionId });
  if (!session) throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
  return session;
}

/** The caller of an endpoint that needs a signed-in user. */
export interface Authenticated {
  claims: JWTPayload;
  user: AuthUserRecord;
  session: AuthSessionRecord | null;
  /**
   * True when the user has a verified factor that this session has not passed (aal1): only the
   * routes classified `partial` run then, and they show nothing private.
   */
  secondFactorPending: boolean;
}

/**
 * Supabase Auth's `requireAuthentication`: a valid bearer JWT whose user exists, whose session (if
 * named) still exists, and who is not banned.
 */
export async function authenticate(request: FastifyRequest, context: IdentityContext): Promise<Authenticated> {
  const claims = await verifiedClaims(request, context);
  if (typeof claims.sub !== 'string' || claims.sub === '') {
    throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
  }
  if (!isUuid(claims.sub)) throw new ApiError(400, 'bad_jwt', 'invalid claim: sub claim must be a UUID');
  const user = await context.dataSource.manager.findOneBy(AuthUserRecord, { id: claims.sub });
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  const session = await loadSession(context, claims);
  if (isBanned(user)) throw forbidden('user_banned', 'User is banned');
  // An aal2 session has passed a factor: only aal1 callers cost this (indexed) count.
  const secondFactorPending =
    session?.aal !== 'aal2' &&
    (await context.dataSource.manager.existsBy(AuthFactorRecord, { userId: user.id, status: 'verified' }));
  return { claims, user, session, secondFactorPending };
}

/**
 * The one assurance rule of the service (deny by default): with a verified factor, a session that
 * has not passed it may call only the routes classified `partial`; every other `user` route answers
 * `403 insufficient_aal` and changes nothing.
 */
export function requireAssurance(auth: Authenticated, assurance: RouteAssurance): void {
  if (assurance === 'partial' || !auth.secondFactorPending) return;
  throw forbidden('insufficient_aal', 'AAL2 session is required: verify your second factor first.');
}

/**
 * Supabase Auth's `requireAdminCredentials`: a valid bearer JWT whose `role` is an admin role.
 * `exp` is checked only when present, so long-lived service keys work.
 */
export async function requireAdmin(request: FastifyRequest, context: IdentityContext): Promise<JWTPayload> {
  const claims = await verifiedClaims(request, context);
  await loadSession(context, claims);
  if (typeof claims.role !== 'string' || !ADMIN_ROLES.includes(claims.role)) {
    throw forbidden('not_admin', 'User not allowed');
  }
  return claims;
}

/** `app_metadata` in a user's own update needs admin rights. */
export const notAdmin = (): ApiError => forbidden('not_admin', 'Updating app_metadata requires admin privileges');
export const anonymousDisabled = (): ApiError =>
  unprocessable('anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
