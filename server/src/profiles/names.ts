import { codePoints } from '../db/columns.js';
import { appError, badUserInput, ErrorCode } from '../graphql/errors.js';
import { displayNameProblem, MAX_NAME_LENGTH, MIN_NAME_LENGTH, normalDisplayName } from '../rules/names.js';

/**
 * The name trimmed and in NFC, or BAD_USER_INPUT on `field` when it is blank, too long, holds
 * control characters, or breaks the shared display-name rule (`reason` says which part).
 */
export function cleanName(value: string, field: string): string {
  const name = normalDisplayName(value);
  const label = field.replace(/^input\./, '');
  // Code points, as the column counts them: an emoji with a variation selector is two.
  if (codePoints(name) < MIN_NAME_LENGTH || codePoints(name) > MAX_NAME_LENGTH) {
    throw badUserInput(`${label} must be ${MIN_NAME_LENGTH} to ${MAX_NAME_LENGTH} characters`, field);
  }
  if (/\p{Cc}/u.test(name)) throw badUserInput(`${label} must not contain control characters`, field);
  // Letters, digits, punctuation or symbols: a name of only invisible characters (U+200B) shows as nothing.
  if (!/[\p{L}\p{N}\p{P}\p{S}]/u.test(name)) throw badUserInput(`${label} must contain a visible character`, field);
  const problem = displayNameProblem(name);
  if (problem) throw appError(ErrorCode.BAD_USER_INPUT, problem.message, { field, reason: problem.reason });
  return name;
}

/** A profile's bio: up to 160 characters. */
export const MAX_BIO_LENGTH = 160;

/**
 * The bio as stored: trimmed, at most two line breaks in a row, no other control characters;
 * BAD_USER_INPUT on `field` past 160 characters. Empty means no bio.
 */
export function cleanBio(value: string, field: string): string {
  const bio = value
    .replace(/\r\n?/gu, '\n')
    .replace(/[^\S\n]+/gu, ' ')
    .replace(/ *\n */gu, '\n')
    .replace(/\n{3,}/gu, '\n\n')
    .trim();
  if (codePoints(bio) > MAX_BIO_LENGTH) {
    throw badUserInput(`bio can be at most ${MAX_BIO_LENGTH} characters`, field);
  }
  if (/[^\P{Cc}\n]/u.test(bio)) throw badUserInput('bio must not contain control characters', field);
  return bio;
}
