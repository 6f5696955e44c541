import { GraphQLError } from 'graphql';
import type { AuthUser, Context } from '../graphql/context.js';
import { appError, ErrorCode } from '../graphql/errors.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import type { TokenVerifier } from '../identity/token-verifier.js';
import { TokenVerificationError } from '../identity/token-verifier.js';

const BEARER = /^bearer\s+(\S+)$/i;

/**
 * The caller an Authorization header names: null without one, UNAUTHENTICATED (HTTP 401) when the
 * token is malformed, expired, forged or its session ended, so that clients refresh or sign in again.
 */
export async function authenticate(header: string | undefined, verifier: TokenVerifier): Promise<AuthUser | null> {
  if (header === undefined || header === '') return null;
  const token = BEARER.exec(header)?.[1];
  try {
    if (!token) throw new TokenVerificationError('invalid', 'The Authorization header must be "Bearer <access token>"');
    return await verifier.verify(token);
  } catch (error) {
    if (isDatabaseUnavailable(error)) {
      // The session could not be looked up: worth retrying, and no reason to sign the caller out.
      throw appError(
        ErrorCode.SERVICE_UNAVAILABLE,
        'The service is briefly unavailable. Please try again in a moment.',
        {
          http: { status: 503 },
        },
      );
    }
    if (!(error instanceof TokenVerificationError)) throw error;
    throw new GraphQLError(error.message, {
      extensions: { code: ErrorCode.UNAUTHENTICATED, reason: error.reason, http: { status: 401 } },
    });
  }
}

/** The one factory of a resolver's `Context`: nothing HTTP-specific, so tests build it the same way. */
export function createContext(input: Context): Context {
  return { user: input.user, loaders: input.loaders, log: input.log, clientIp: input.clientIp };
}
