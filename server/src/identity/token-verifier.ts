import { createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import type { JWTPayload, JWTVerifyGetKey } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Config } from '../config.js';
import type { AuthUser } from '../graphql/context.js';
import { importHs256Secret } from './hs256.js';

/** Why an access token was refused. */
export type TokenRejection = 'expired' | 'invalid' | 'session_ended';

/** An access token that does not identify a signed-in user. */
export class TokenVerificationError extends Error {
  override name = 'TokenVerificationError';

  constructor(
    readonly reason: TokenRejection,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A session that still exists, as the embedded service sees it (embedded/sessions.ts). */
export interface LiveSession {
  /** Whether its user has a verified second factor (read in the same query as the session). */
  verifiedFactor: boolean;
}

/** The token's session if it still exists, else null: the embedded service provides it. */
export type SessionLiveness = (sessionId: string, userId: string) => Promise<LiveSession | null>;

/** Hosted mode: whether the token's user has a verified factor (the identity service's answer, kept briefly). */
export type FactorLookup = (userId: string, accessToken: string) => Promise<boolean>;

/** What the verifier needs of the embedded service's keys: a signature check. */
export interface SigningKeys {
  verify(token: string): Promise<{ payload: JWTPayload }>;
}

/** Verifies access tokens locally, without a call to the identity service. */
export interface TokenVerifier {
  /** The caller a bearer token names; throws TokenVerificationError for every bad token. */
  verify(token: string): Promise<AuthUser>;
}

/** How long the hosted JWKS is cached (as auth-js does). */
const JWKS_CACHE_MS = 10 * 60 * 1000;
const ASYMMETRIC_ALGORITHMS = ['RS256', 'ES256', 'RS512', 'ES512', 'EdDSA'];

/**
 * Tokens that passed (signature, claims and, in embedded mode, the session) are kept until they
 * expire, at most 10 minutes: a member's token is checked once, not at every request (its HMAC
 * through WebCrypto was a sixth of the CPU of a `me` query when profiled). The session check is not
 * kept. With a hosted JWKS, a key dropped from it is trusted for up to 20 minutes: 10 for jose's
 * JWKS cache, 10 for this one.
 */
const VERIFIED_TTL_MS = 10 * 60 * 1000;
/** At most 5,000 tokens, and 8 M characters of them: a token's metadata is the signer's to fill. */
const VERIFIED_TOKENS_MAX = 5000;
const VERIFIED_TOKENS_MAX_CHARS = 8_000_000;
/** A token longer than this is verified each time rather than kept. */
const VERIFIED_TOKEN_MAX_CHARS = 4096;

/** The `amr` methods of a sign-in by an emailed link or code (Supabase Auth's names). */
const EMAIL_LINK_METHODS = new Set(['recovery', 'invite', 'magiclink', 'otp']);

/** When the session was last signed in by an emailed link or code, from the `amr` claim. */
function emailLinkAt(payload: JWTPayload): Date | null {
  const { amr } = payload;
  if (!Array.isArray(amr)) return null;
  let latest: number | null = null;
  for (const entry of amr as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { method, timestamp } = entry as { method?: unknown; timestamp?: unknown };
    if (typeof method !== 'string' || !EMAIL_LINK_METHODS.has(method) || typeof timestamp !== 'number') continue;
    if (latest === null || timestamp > latest) latest = timestamp;
  }
  return latest === null ? null : new Date(latest * 1000);
}

function stringClaim(payload: JWTPayload, name: string): string | null {
  const value = payload[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * Builds the verifier of access tokens for the GraphQL context. It checks the signature (HS256
 * secret or JWKS, by the token's `alg` when both are configured; never `alg: none`), `exp` (required), `aud` = authenticated, `iss` when known,
 * and `role` = authenticated. In embedded mode it also needs the token's session to still exist
 * (one primary-key lookup), so that logout, password change and account deletion take effect at
 * once; hosted tokens stay valid until `exp`, as Supabase's own local verification does.
 */
export function createTokenVerifier(
  config: Config,
  embedded: { keys: SigningKeys; sessionAlive: SessionLiveness } | undefined,
  hosted?: { verifiedFactor: FactorLookup },
): TokenVerifier {
  const { identity } = config;
  let verifySignature: (token: string) => Promise<JWTPayload>;
  let issuer: string | undefined;
  if (identity.mode === 'embedded') {
    if (!embedded) throw new Error('the embedded identity keys are required in embedded mode');
    const { keys } = embedded;
    verifySignature = async (token) => (await keys.verify(token)).payload;
    issuer = config.auth.jwtIssuer;
  } else {
    const options = { audience: identity.audience, requiredClaims: ['exp', 'sub'] };
    const jwks: JWTVerifyGetKey | undefined =
      identity.jwksUrl === undefined
        ? undefined
        : createRemoteJWKSet(new URL(identity.jwksUrl), { cacheMaxAge: JWKS_CACHE_MS });
    const secret = identity.jwtSecret === undefined ? undefined : importHs256Secret(identity.jwtSecret);
    verifySignature = async (token) => {
      // With both, the header picks: a project moving to asymmetric keys still has HS256 tokens out.
      const useSecret = secret !== undefined && (jwks === undefined || decodeProtectedHeader(token).alg === 'HS256');
      if (secret && useSecret) {
        return (await jwtVerify(token, await secret, { ...options, algorithms: ['HS256'] })).payload;
      }
      if (jwks) return (await jwtVerify(token, jwks, { ...options, algorithms: ASYMMETRIC_ALGORITHMS })).payload;
      throw new Error('no key to verify access tokens with');
    };
    issuer = identity.issuer;
  }

  /** The token's verified claims: its signature, expiry, audience, issuer, role and subject. */
  const verifiedClaims = async (token: string): Promise<JWTPayload & { exp: number; sub: string }> => {
    let payload: JWTPayload;
    try {
      payload = await verifySignature(token);
    } catch (error) {
      if (error instanceof errors.JWTExpired)
        throw new TokenVerificationError('expired', 'The access token has expired', { cause: error });
      throw new TokenVerificationError('invalid', 'The access token is not valid', { cause: error });
    }
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    const { exp } = payload;
    const sub = stringClaim(payload, 'sub');
    if (typeof exp !== 'number') throw new TokenVerificationError('invalid', 'The access token has no expiry');
    if (!audiences.includes(identity.audience))
      throw new TokenVerificationError('invalid', 'The access token is for another audience');
    if (issuer !== undefined && payload.iss !== issuer)
      throw new TokenVerificationError('invalid', 'The access token has another issuer');
    if (payload.role !== 'authenticated' || sub === null) {
      throw new TokenVerificationError('invalid', 'The token does not name a signed-in user');
    }
    return { ...payload, exp, sub };
  };
  const verified = new LRUCache<string, JWTPayload & { exp: number; sub: string }>({
    max: VERIFIED_TOKENS_MAX,
    maxSize: VERIFIED_TOKENS_MAX_CHARS,
    // The token, and its claims (decoded from about three quarters of it).
    sizeCalculation: (_payload, token) => 2 * token.length,
    ttl: VERIFIED_TTL_MS,
  });

  return {
    async verify(token) {
      const cached = verified.get(token);
      // The clock is asked too: the cache's own runs on monotonic time.
      const known = cached !== undefined && cached.exp * 1000 > Date.now() ? cached : undefined;
      const payload = known ?? (await verifiedClaims(token));
      const { sub } = payload;
      const sessionId = stringClaim(payload, 'session_id');
      const aal = payload.aal === 'aal2' ? 'aal2' : 'aal1';
      let secondFactorPending = false;
      if (embedded) {
        const live = sessionId === null ? null : await embedded.sessionAlive(sessionId, sub);
        if (!live) throw new TokenVerificationError('session_ended', 'The session of this access token has ended');
        secondFactorPending = aal === 'aal1' && live.verifiedFactor;
      } else if (aal === 'aal1' && hosted) {
        secondFactorPending = await hosted.verifiedFactor(sub, token);
      }
      if (known === undefined && token.length <= VERIFIED_TOKEN_MAX_CHARS) {
        // Until one second before `exp` (jose's own check counts whole seconds).
        const ttl = Math.min(VERIFIED_TTL_MS, payload.exp * 1000 - 1000 - Date.now());
        if (ttl > 0) verified.set(token, payload, { ttl });
      }
      const appMetadata = payload.app_metadata;
      const stripeRole =
        typeof appMetadata === 'object' &&
        appMetadata !== null &&
        'stripeRole' in appMetadata &&
        typeof appMetadata.stripeRole === 'string'
          ? appMetadata.stripeRole
          : null;
      return {
        id: sub,
        email: stringClaim(payload, 'email') ?? '',
        sessionId,
        aal,
        secondFactorPending,
        emailLinkAt: emailLinkAt(payload),
        stripeRole,
        accessToken: token,
      };
    },
  };
}
