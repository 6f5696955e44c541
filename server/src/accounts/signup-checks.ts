import { codePoints } from '../db/columns.js';
import { appError, badUserInput, ErrorCode } from '../graphql/errors.js';
import type { IdentityUser } from '../identity/identity.client.js';
import { passwordProblems } from '../identity/password-policy.js';
import { cleanName } from '../profiles/names.js';
import { readIsoDate } from '../rules/dates.js';
import { MAX_NAME_LENGTH } from '../rules/names.js';
import {
  birthdayRefusal,
  EMAIL_SHAPE,
  MAX_EMAIL_LENGTH,
  MAX_PLATFORM_ID_LENGTH,
  MINIMUM_AGE_YEARS,
  PLATFORM_PATTERN,
} from '../rules/signup.js';

/** The sign-up details kept in the identity account's user_metadata, so that records can be rebuilt. */
export interface SignUpMetadata {
  first: string;
  birthday: string | null;
  platform: string;
  platformID: string | null;
  day: string;
}

/** A client's install or app identifier within the limit, counted as the column counts (code points). */
export function isValidPlatformID(value: string): boolean {
  return codePoints(value) <= MAX_PLATFORM_ID_LENGTH;
}

/** BAD_USER_INPUT on `field` when a given platform identifier is over the limit. */
export function checkPlatformID(value: string | null | undefined, field: string): void {
  if (value != null && !isValidPlatformID(value)) {
    throw badUserInput(`platformID must be 1 to ${MAX_PLATFORM_ID_LENGTH} characters`, field);
  }
}

/**
 * The user_metadata key Lampstand's sign-up sets on every identity account it creates. The
 * reconciliation rebuilds records only for accounts that carry it: on an identity service shared
 * with other apps (one Supabase project), their users must never get a public profile here.
 */
export const SIGNED_UP_MARKER = 'lampstand';

/** Whether Lampstand's sign-up created the identity account (its metadata carries the marker). */
export function signedUpHere(user: IdentityUser): boolean {
  return user.userMetadata[SIGNED_UP_MARKER] === 1;
}

/**
 * Sign-up details kept in an identity account's metadata, for rebuilding its records. The metadata
 * is the account holder's to write (Supabase Auth's /signup and PUT /user take any `data`), so
 * every value meets the sign-up rules or falls back to a safe default.
 */
export function metadataOf(user: IdentityUser): SignUpMetadata {
  const data = user.userMetadata;
  const text = (key: string): string | null => (typeof data[key] === 'string' ? data[key] : null);
  const valid = <T>(check: () => T): T | null => {
    try {
      return check();
    } catch {
      return null;
    }
  };
  const emailName = user.email.split('@')[0] ?? '';
  const first =
    valid(() => cleanName(text('first') ?? '', 'first')) ??
    valid(() => cleanName(emailName.slice(0, MAX_NAME_LENGTH), 'first')) ??
    'Friend';
  const platform = text('platform');
  const platformID = text('platformID');
  const birthday = text('birthday');
  const day = text('day');
  return {
    first,
    birthday: birthday === null ? null : valid(() => checkBirthday(birthday, new Date())),
    platform: platform !== null && PLATFORM_PATTERN.test(platform) ? platform : 'api',
    platformID: platformID !== null && isValidPlatformID(platformID) && !/\p{Cc}/u.test(platformID) ? platformID : null,
    day: (day === null ? null : readIsoDate(day)?.date) ?? new Date().toISOString().slice(0, 10),
  };
}

/** The address trimmed and lowercased, or BAD_USER_INPUT on `field` when it cannot be one. */
export function normalEmail(value: string, field: string): string {
  const address = value.trim().toLowerCase();
  if (!EMAIL_SHAPE.test(address) || codePoints(address) > MAX_EMAIL_LENGTH) {
    throw badUserInput('email must be a valid email address', field);
  }
  return address;
}

/** The password policy, checked here too so that it holds whichever identity service is used. */
export function checkPassword(password: string, field: string): void {
  const { tooLong, weak } = passwordProblems(password);
  if (tooLong) throw badUserInput(tooLong, field);
  if (weak.length > 0) {
    throw appError(ErrorCode.WEAK_PASSWORD, weak.map((problem) => problem.message).join(' '), {
      field,
      reasons: weak.map((problem) => problem.reason),
    });
  }
}

/** The words for each refusal of the birthday rule (rules/signup.ts). */
const BIRTHDAY_REFUSALS = {
  notADate: 'input.birthday must be a real date written as YYYY-MM-DD.',
  notPast: 'birthday must be in the past',
  tooYoung: `You must be at least ${MINIMUM_AGE_YEARS} to use Lampstand.`,
} as const;

/** A real date in the past, at least MINIMUM_AGE_YEARS ago, or BAD_USER_INPUT on `input.birthday`. */
export function checkBirthday(value: string, now: Date): string {
  const refusal = birthdayRefusal(value, now.toISOString().slice(0, 10));
  if (refusal !== null) throw badUserInput(BIRTHDAY_REFUSALS[refusal], 'input.birthday');
  return value;
}
