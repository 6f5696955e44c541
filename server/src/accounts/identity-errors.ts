import type { GraphQLError } from 'graphql';
import { appError, ErrorCode, rateLimited } from '../graphql/errors.js';
import { IdentityError } from '../identity/identity.client.js';

/** Identity codes that mean "this refresh token or session no longer works: sign in again". */
const ENDED = new Set([
  'refresh_token_not_found',
  'refresh_token_already_used',
  'session_not_found',
  'session_expired',
  'bad_jwt',
  'no_authorization',
  'user_not_found',
]);

/** When a rate-limited caller may try again, if the identity service's message does not say: a minute. */
const IDENTITY_RETRY_AFTER_S = 60;

/**
 * When to try again after the identity service's 429: the seconds its message names ("after 42
 * seconds"), else a minute (supabase-js passes on no response headers, so its `Retry-After` is lost).
 */
function retryNote(error: IdentityError): { retryAfterSeconds: number } {
  const seconds = /after (\d+) seconds?/i.exec(error.message)?.[1];
  return { retryAfterSeconds: seconds === undefined ? IDENTITY_RETRY_AFTER_S : Math.max(1, Number(seconds)) };
}

/**
 * Turns an identity failure into the API's coded error, keeping the identity service's own code
 * (`identityCode`) and its message, as the original showed "message (code)". `field` names the
 * input a validation failure is about. Anything not an IdentityError is rethrown untouched.
 */
export function fromIdentityError(error: unknown, fields: { email?: string; password?: string } = {}): GraphQLError {
  if (!(error instanceof IdentityError)) throw error;
  const identityCode = error.code;
  const details = (field?: string) => ({ identityCode, field });
  switch (error.code) {
    case 'user_already_exists':
    case 'email_exists':
      return appError(
        ErrorCode.EMAIL_TAKEN,
        'An account with this email address already exists.',
        details(fields.email),
      );
    case 'weak_password':
      return appError(ErrorCode.WEAK_PASSWORD, error.message, { ...details(fields.password), reasons: error.reasons });
    case 'same_password':
      return appError(ErrorCode.BAD_USER_INPUT, error.message, details(fields.password));
    case 'validation_failed':
    case 'email_address_invalid':
      return appError(
        ErrorCode.BAD_USER_INPUT,
        error.message,
        details(/password/i.test(error.message) ? fields.password : fields.email),
      );
    case 'invalid_credentials':
      return appError(ErrorCode.INVALID_CREDENTIALS, 'The email or password is not right.', details());
    case 'current_password_mismatch':
      return appError(ErrorCode.INVALID_CREDENTIALS, 'Your current password is not right.', details(fields.password));
    case 'reauthentication_needed':
    case 'reauthentication_not_valid':
      return appError(
        ErrorCode.REAUTHENTICATION_NEEDED,
        'This change needs your current password, or a sign-in in the last few minutes: sign in again and retry.',
        details(),
      );
    case 'mfa_factor_locked':
      return rateLimited('Too many wrong codes: wait a few minutes, then try again.', retryNote(error), details());
    case 'email_not_confirmed':
      return appError(
        ErrorCode.EMAIL_NOT_CONFIRMED,
        'Please confirm your email address first: follow the link we emailed you.',
        details(),
      );
    case 'over_request_rate_limit':
    case 'over_email_send_rate_limit':
      return rateLimited(error.message, retryNote(error), details());
    case 'otp_expired':
      return appError(ErrorCode.INVALID_TOKEN, 'This link or code has expired or was already used.', details());
    case 'signup_disabled':
    case 'user_banned':
    case 'not_admin':
      return appError(ErrorCode.FORBIDDEN, error.message, details());
    case 'insufficient_aal':
      return appError(
        ErrorCode.MFA_REQUIRED,
        'Enter the code from your authenticator app first: this session has not passed two-factor sign-in.',
        details(),
      );
    case 'identity_unavailable':
      return appError(
        ErrorCode.IDENTITY_UNAVAILABLE,
        'Accounts are unavailable right now. Please try again in a moment.',
        details(),
      );
    default:
      if (ENDED.has(error.code)) {
        return appError(ErrorCode.UNAUTHENTICATED, 'Your session has ended. Please sign in again.', details());
      }
      if (error.status >= 500) {
        return appError(
          ErrorCode.IDENTITY_UNAVAILABLE,
          'Accounts are unavailable right now. Please try again in a moment.',
          details(),
        );
      }
      return appError(ErrorCode.BAD_USER_INPUT, error.message, details());
  }
}
