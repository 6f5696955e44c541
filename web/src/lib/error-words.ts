import type { ApiFailure } from './errors';

/** Apollo Server's codes: a request the app itself would not send (an old tab after an update). */
const OUT_OF_DATE = 'This page is out of date. Please reload it and try again.';
const WEAK_PASSWORD =
  'That password cannot be used: it is too short or too easy to guess. A few unrelated words work well.';
const TOO_MANY_TRIES = 'Too many tries in a short time. Please wait a few minutes and try again.';
const FALLBACK = 'Something went wrong on our side. Please try again.';

/**
 * What each code the API answers with means, for people: Lampstand's codes
 * (server/src/graphql/errors.ts), Apollo Server's own, and NETWORK when the API was not reached.
 * tests/web/error-words.test.ts fails when the API has a code this list does not.
 */
export const API_ERROR_WORDS: Readonly<Record<string, string>> = {
  BAD_USER_INPUT: 'Something you entered is not right. Please check it and try again.',
  UNAUTHENTICATED: 'Your session has ended. Please log in again.',
  FORBIDDEN: 'This account cannot do that.',
  CROSS_SITE_REQUEST: 'This request came from another site, so it was not carried out. Please use Lampstand directly.',
  NOT_FOUND: 'We could not find that. It may have been removed.',
  EMAIL_TAKEN: 'An account with this email address already exists.',
  USERNAME_TAKEN: 'Someone already has that username. Please choose another.',
  INVALID_CREDENTIALS: 'The email or password is not right.',
  EMAIL_NOT_CONFIRMED: 'Please confirm your email address first: follow the link we emailed you.',
  WEAK_PASSWORD,
  INVALID_TOKEN: 'This link or code has expired or was already used.',
  RATE_LIMITED: TOO_MANY_TRIES,
  PLUS_REQUIRED: 'This is part of Lampstand Plus.',
  LIMIT_REACHED: 'You have reached the limit of your plan.',
  BILLING_NOT_CONFIGURED: 'Payments are not set up on this site.',
  ALREADY_SUBSCRIBED: 'You already have Lampstand Plus.',
  BILLING_UNAVAILABLE: 'Payments are unavailable right now. Nothing was charged. Please try again in a moment.',
  IDENTITY_UNAVAILABLE: 'Accounts are unavailable right now. Please try again in a moment.',
  MFA_REQUIRED: 'Enter the code from your authenticator app first.',
  RECOVERY_CODE_USED: 'That recovery code was used already: each works once. Try another one.',
  RECOVERY_CODES_UNAVAILABLE: 'Recovery codes are not available on this site.',
  REAUTHENTICATION_NEEDED: 'For this change, please log in again first, then try once more.',
  SERVICE_UNAVAILABLE: 'Lampstand is unavailable for a moment. Please try again shortly.',
  INTERNAL_SERVER_ERROR: FALLBACK,
  GRAPHQL_PARSE_FAILED: OUT_OF_DATE,
  GRAPHQL_VALIDATION_FAILED: OUT_OF_DATE,
  BAD_REQUEST: OUT_OF_DATE,
  PERSISTED_QUERY_NOT_FOUND: OUT_OF_DATE,
  PERSISTED_QUERY_NOT_SUPPORTED: OUT_OF_DATE,
  OPERATION_RESOLUTION_FAILURE: OUT_OF_DATE,
  INTROSPECTION_DISABLED: OUT_OF_DATE,
  MAX_RECURSIVE_SELECTIONS_EXCEEDED: OUT_OF_DATE,
  NETWORK: 'We could not reach Lampstand. Please check your connection and try again.',
};

/**
 * The identity service's codes the API passes on (`identityCode`) with the service's own English,
 * said for people instead (see server/src/accounts/identity-errors.ts). A code not listed here is
 * said by the words of the API's code.
 */
export const IDENTITY_ERROR_WORDS: Readonly<Record<string, string>> = {
  user_already_exists: 'An account with this email address already exists.',
  email_exists: 'An account with this email address already exists.',
  weak_password: WEAK_PASSWORD,
  same_password: 'That is your current password. Choose a new one.',
  current_password_mismatch: 'Your current password is not right.',
  validation_failed: 'Please check the email address and the password: one of them cannot be used as it is.',
  email_address_invalid: 'That email address cannot receive our mail. Please use another one.',
  over_request_rate_limit: TOO_MANY_TRIES,
  over_email_send_rate_limit: 'We sent several emails to this address just now. Please wait a few minutes first.',
  mfa_factor_locked: 'Too many wrong codes. Please wait a few minutes, then try again.',
  signup_disabled: 'New accounts cannot be made right now.',
  user_banned: 'This account is suspended.',
  not_admin: 'This account cannot do that.',
};

/** Codes whose messages the API writes itself for people, naming what is wrong (`Use at most 50 characters.`). */
const SPOKEN_BY_API: ReadonlySet<string> = new Set([
  'BAD_USER_INPUT',
  'LIMIT_REACHED',
  'PLUS_REQUIRED',
  'NOT_FOUND',
  'RATE_LIMITED',
]);

/** Why a password was refused (`reasons` of WEAK_PASSWORD), said for people. */
const WEAK_PASSWORD_REASONS: Readonly<Record<string, string>> = {
  length: 'That password is too short: use at least 8 characters.',
  pwned: 'That password is too easy to guess, so it cannot be used. A few unrelated words work well.',
};

/**
 * A failure in words only, never a code: why a password was refused, the identity service's code
 * said for people, the API's own sentence where it names what is wrong, or the words of the code.
 */
export function failureWords(failure: Pick<ApiFailure, 'code' | 'identityCode' | 'message' | 'reasons'>): string {
  const reason =
    failure.code === 'WEAK_PASSWORD' ? failure.reasons.find((name) => name in WEAK_PASSWORD_REASONS) : null;
  if (reason) return WEAK_PASSWORD_REASONS[reason] ?? FALLBACK;
  if (failure.identityCode) {
    return IDENTITY_ERROR_WORDS[failure.identityCode] ?? API_ERROR_WORDS[failure.code] ?? FALLBACK;
  }
  if (SPOKEN_BY_API.has(failure.code) && failure.message.trim() !== '') return failure.message;
  return API_ERROR_WORDS[failure.code] ?? FALLBACK;
}
