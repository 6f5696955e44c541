import { GraphQLError } from 'graphql';
import type { RateLimitNote } from '../http/rate-limit-headers.js';

/** Every expected failure the API reports, as the stable `extensions.code` clients switch on. */
export const ErrorCode = {
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  /** A mutation sent by a browser from a page on another site (see server/src/http/cross-site.ts). */
  CROSS_SITE_REQUEST: 'CROSS_SITE_REQUEST',
  NOT_FOUND: 'NOT_FOUND',
  EMAIL_TAKEN: 'EMAIL_TAKEN',
  USERNAME_TAKEN: 'USERNAME_TAKEN',
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  EMAIL_NOT_CONFIRMED: 'EMAIL_NOT_CONFIRMED',
  WEAK_PASSWORD: 'WEAK_PASSWORD',
  INVALID_TOKEN: 'INVALID_TOKEN',
  RATE_LIMITED: 'RATE_LIMITED',
  PLUS_REQUIRED: 'PLUS_REQUIRED',
  LIMIT_REACHED: 'LIMIT_REACHED',
  BILLING_NOT_CONFIGURED: 'BILLING_NOT_CONFIGURED',
  ALREADY_SUBSCRIBED: 'ALREADY_SUBSCRIBED',
  BILLING_UNAVAILABLE: 'BILLING_UNAVAILABLE',
  IDENTITY_UNAVAILABLE: 'IDENTITY_UNAVAILABLE',
  /** The member has two-factor sign-in on and this session has not passed it (`verifyMfa`). */
  MFA_REQUIRED: 'MFA_REQUIRED',
  /** A recovery code that signed in once already (`verifyRecoveryCode`): each works once. */
  RECOVERY_CODE_USED: 'RECOVERY_CODE_USED',
  /** Recovery codes need the embedded identity service; hosted Supabase Auth has none. */
  RECOVERY_CODES_UNAVAILABLE: 'RECOVERY_CODES_UNAVAILABLE',
  /** The change needs a session signed in by an emailed link in the last minutes (`setNewPassword`). */
  REAUTHENTICATION_NEEDED: 'REAUTHENTICATION_NEEDED',
  /** The database cannot be reached for now (the HTTP routes answer 503 with the same code). */
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface ErrorDetails {
  /** The input field at fault, as a path from the argument (`input.password`). */
  field?: string;
  /** The identity service's own error code, when it caused the failure. */
  identityCode?: string;
  [key: string]: unknown;
}

/** An expected failure: a human message plus a stable code (and details) for clients. */
export function appError(code: ErrorCode, message: string, details: ErrorDetails = {}): GraphQLError {
  const extensions: Record<string, unknown> = { code };
  for (const [key, value] of Object.entries(details)) {
    if (value !== undefined) extensions[key] = value;
  }
  return new GraphQLError(message, { extensions });
}

/**
 * RATE_LIMITED with `retryAfter` (seconds) and, for a counted window, `rateLimit: { limit, window }`:
 * the answer carries them as `Retry-After` and `RateLimit-*` headers too (see rate-limit-plugin.ts).
 */
export function rateLimited(message: string, note: RateLimitNote, details: ErrorDetails = {}): GraphQLError {
  const retryAfter = Math.max(1, Math.ceil(note.retryAfterSeconds));
  const rateLimit = note.limit === undefined ? undefined : { limit: note.limit, window: note.windowSeconds };
  return appError(ErrorCode.RATE_LIMITED, message, { ...details, retryAfter, rateLimit });
}

export const badUserInput = (message: string, field?: string): GraphQLError =>
  appError(ErrorCode.BAD_USER_INPUT, message, { field });

export const unauthenticated = (message = 'You need to sign in first.'): GraphQLError =>
  appError(ErrorCode.UNAUTHENTICATED, message);

export const forbidden = (message = 'You are not allowed to do that.'): GraphQLError =>
  appError(ErrorCode.FORBIDDEN, message);

/** True when the error is one of ours (or Apollo's) with a code a client may see as it is. */
export function isExpectedError(error: unknown): error is GraphQLError {
  if (!(error instanceof GraphQLError)) return false;
  const code = error.extensions.code;
  return typeof code === 'string' && code !== ErrorCode.INTERNAL_SERVER_ERROR;
}
