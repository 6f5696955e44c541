/**
 * What a valid sign-up is, besides the names (names.ts) and the password (password.ts): the
 * address, the client's name for itself and the birthday. The GraphQL inputs, the sign-up service,
 * the rebuild of records from identity metadata (accounts/signup-checks.ts) and the web's sign-up
 * form read them from here (`@rules/signup`).
 */
import { readIsoDate } from './dates.js';

/** Email addresses longer than this many characters are refused. */
export const MAX_EMAIL_LENGTH = 255;

/** The shape an address must have before the identity service is asked: something@host.tld, no spaces. */
export const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A client's own install or app identifier, at most this many characters. */
export const MAX_PLATFORM_ID_LENGTH = 128;

/** What a client may name itself as: `web`, `ios`, `android`, `api`, … */
export const PLATFORM_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** Members must be at least this old on the day they sign up. */
export const MINIMUM_AGE_YEARS = 13;

/** Why a birthday is refused: not a real `YYYY-MM-DD` date, not in the past, or too recent. */
export type BirthdayRefusal = 'notADate' | 'notPast' | 'tooYoung';

/**
 * Why `birthday` is refused on `today` (both ISO dates), or null: a real date, before today, on or
 * before the same day MINIMUM_AGE_YEARS years ago (compared as written: 29 February comes of age on
 * 1 March in a common year).
 */
export function birthdayRefusal(birthday: string, today: string): BirthdayRefusal | null {
  if (readIsoDate(birthday) === null) return 'notADate';
  if (birthday >= today) return 'notPast';
  const latestAllowed = `${String(Number(today.slice(0, 4)) - MINIMUM_AGE_YEARS).padStart(4, '0')}${today.slice(4)}`;
  return birthday > latestAllowed ? 'tooYoung' : null;
}
