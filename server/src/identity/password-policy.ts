import { dictionary } from '@zxcvbn-ts/language-common';
import { PRINTABLE_ASCII, isFaithPassword } from './faith-words.js';

/** bcrypt's limit, kept so that accounts move freely between the embedded service and Supabase Auth. */
export const MAX_PASSWORD_BYTES = 72;

/** The product's minimum, whichever identity service is used. */
export const MIN_PASSWORD_LENGTH = 8;

/**
 * Common passwords (zxcvbn-ts's list, ~18k of 8+ characters), compared case-insensitively, and
 * faith words with digits or symbols around them (`faith-words.ts`).
 */
const blocklist = new Set(
  dictionary['passwords-common'].filter((word) => word.length >= MIN_PASSWORD_LENGTH).map((word) => word.toLowerCase()),
);

export interface PasswordProblems {
  /** Over 72 bytes: refused outright (Supabase Auth's `validation_failed`). */
  tooLong: string | null;
  /** Supabase Auth's `weak_password` reasons (`length`, `pwned`) with their messages. */
  weak: { reason: 'length' | 'pwned'; message: string }[];
}

const graphemes = new Intl.Segmenter();

/** Characters as people count them (grapheme clusters), so accents and emoji count once. */
function characterCount(value: string): number {
  if (PRINTABLE_ASCII.test(value)) return value.length;
  let count = 0;
  for (const _segment of graphemes.segment(value)) count++;
  return count;
}

/**
 * The password policy: at least `minLength` characters, at most 72 bytes, not on the
 * common-passwords blocklist, no composition rules. Returns what is wrong (nothing when it is fine).
 */
export function passwordProblems(password: string, minLength = MIN_PASSWORD_LENGTH): PasswordProblems {
  const tooLong =
    Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES
      ? `Password cannot be longer than ${MAX_PASSWORD_BYTES} characters (bytes in UTF-8)`
      : null;
  const weak: PasswordProblems['weak'] = [];
  if (characterCount(password) < minLength) {
    weak.push({ reason: 'length', message: `Password should be at least ${minLength} characters.` });
  }
  if (blocklist.has(password.toLowerCase()) || isFaithPassword(password)) {
    weak.push({
      reason: 'pwned',
      message: 'Password is known to be weak and easy to guess, please choose a different one.',
    });
  }
  return { tooLong, weak };
}
