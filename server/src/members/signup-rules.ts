/**
 * The limits of a sign-up, in one place: the GraphQL inputs, the checks of the sign-up service and
 * of the rebuild of records from identity metadata (accounts/signup-checks.ts), and the web's
 * sign-up form all read them from here. This module imports nothing, so the web can share it.
 */

/** Email addresses longer than this many characters are refused. */
export const MAX_EMAIL_LENGTH = 255;

/** A first name or profile name: 1–50 characters as the column counts them (code points). */
export const MIN_NAME_LENGTH = 1;
export const MAX_NAME_LENGTH = 50;

/** A client's own install or app identifier, at most this many characters. */
export const MAX_PLATFORM_ID_LENGTH = 128;

/** What a client may name itself as: `web`, `ios`, `android`, `api`, … */
export const PLATFORM_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** Members must be at least this old on the day they sign up. */
export const MINIMUM_AGE_YEARS = 13;
