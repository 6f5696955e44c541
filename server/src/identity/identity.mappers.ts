import { isAuthRetryableFetchError, isAuthSessionMissingError, isAuthWeakPasswordError } from '@supabase/auth-js';
import type { AuthError, Session, User } from '@supabase/auth-js';
import { decodeJwt } from 'jose';
import type { IdentitySession, IdentityUser } from './identity.types.js';
import { IdentityError } from './identity.types.js';

/** supabase-js's account as the server's. */
export function toUser(user: User): IdentityUser {
  return {
    id: user.id,
    email: user.email ?? '',
    emailConfirmedAt: user.email_confirmed_at ?? null,
    newEmail: user.new_email ?? null,
    appMetadata: user.app_metadata,
    userMetadata: user.user_metadata,
    createdAt: user.created_at,
    identityCount: user.identities?.length ?? 0,
    factors: (user.factors ?? []).map((factor) => ({
      id: factor.id,
      type: factor.factor_type,
      status: factor.status === 'verified' ? 'verified' : 'unverified',
    })),
  };
}

export const tokenAssurance = (accessToken: string): 'aal1' | 'aal2' =>
  decodeJwt(accessToken).aal === 'aal2' ? 'aal2' : 'aal1';

/** supabase-js's session as the server's. */
export function toSession(session: Session): IdentitySession {
  return {
    aal: tokenAssurance(session.access_token),
    accessToken: session.access_token,
    refreshToken: session.refresh_token,
    expiresAt: session.expires_at ?? Math.floor(Date.now() / 1000) + session.expires_in,
    expiresIn: session.expires_in,
    user: toUser(session.user),
  };
}

/** A token response of the identity service (`access_token`, `refresh_token`, `expires_in`, `user`) as a session. */
export function fromTokenResponse(body: Record<string, unknown>): IdentitySession {
  const { access_token: accessToken, refresh_token: refreshToken, expires_in: expiresIn, user } = body;
  if (typeof accessToken !== 'string' || typeof refreshToken !== 'string' || typeof expiresIn !== 'number' || !user) {
    throw new IdentityError(502, 'identity_bad_response', 'The identity service answered no session');
  }
  return {
    accessToken,
    refreshToken,
    expiresAt: Math.floor(Date.now() / 1000) + expiresIn,
    expiresIn,
    aal: tokenAssurance(accessToken),
    user: toUser(user as User),
  };
}

/** Maps an auth-js error to an IdentityError; network failures and 5xx become `503 identity_unavailable`. */
export function toIdentityError(error: AuthError): IdentityError {
  if (isAuthRetryableFetchError(error)) {
    return new IdentityError(503, 'identity_unavailable', 'The identity service is unavailable', [], { cause: error });
  }
  if (isAuthWeakPasswordError(error)) {
    return new IdentityError(error.status, 'weak_password', error.message, error.reasons, { cause: error });
  }
  if (isAuthSessionMissingError(error)) {
    return new IdentityError(401, 'session_not_found', 'The session has ended', [], { cause: error });
  }
  const status = error.status ?? 500;
  return new IdentityError(
    status,
    error.code ?? (status >= 500 ? 'unexpected_failure' : 'unknown'),
    error.message,
    [],
    {
      cause: error,
    },
  );
}

interface AuthResult {
  data: unknown;
  error: AuthError | null;
}

/** The data of a successful auth-js result; an error result throws as IdentityError. */
export function check<R extends AuthResult>(result: R): Extract<R, { error: null }>['data'] {
  if (result.error) throw toIdentityError(result.error);
  return result.data;
}
