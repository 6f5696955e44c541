import { createRequire } from 'node:module';
import type * as CommonLanguage from '@zxcvbn-ts/language-common';
import {
  blocklistFrom,
  guessableReason,
  MAX_PASSWORD_BYTES,
  MIN_PASSWORD_LENGTH,
  passwordBytes,
  passwordLength,
} from '../rules/password.js';

/**
 * Common passwords (zxcvbn-ts's list, ~18k of 8+ characters), compared case-insensitively; the
 * web's strength meter builds the same set (rules/password.ts). Made at the first password chosen,
 * not at start: unpacking the list was ~5% of a start's CPU (quality.md P9), and sign-in never
 * needs it.
 */
let blocklist: ReadonlySet<string> | undefined;
function commonPasswords(): ReadonlySet<string> {
  if (blocklist) return blocklist;
  const { dictionary } = createRequire(import.meta.url)('@zxcvbn-ts/language-common') as typeof CommonLanguage;
  blocklist = blocklistFrom(dictionary['passwords-common']);
  return blocklist;
}

export interface PasswordProblems {
  /** Over 72 bytes: refused outright (Supabase Auth's `validation_failed`). */
  tooLong: string | null;
  /** Supabase Auth's `weak_password` reasons (`length`, `pwned`) with their messages. */
  weak: { reason: 'length' | 'pwned'; message: string }[];
}

/** Why a password is refused outright (over 72 bytes), or null: all a sign-in checks. */
export function passwordTooLong(password: string): string | null {
  return passwordBytes(password) > MAX_PASSWORD_BYTES
    ? `Password cannot be longer than ${MAX_PASSWORD_BYTES} characters (bytes in UTF-8)`
    : null;
}

/**
 * The password policy: at least `minLength` characters, at most 72 bytes, not on the
 * common-passwords blocklist, no composition rules. Returns what is wrong (nothing when it is fine).
 */
export function passwordProblems(password: string, minLength = MIN_PASSWORD_LENGTH): PasswordProblems {
  const tooLong = passwordTooLong(password);
  const weak: PasswordProblems['weak'] = [];
  if (passwordLength(password) < minLength) {
    weak.push({ reason: 'length', message: `Password should be at least ${minLength} characters.` });
  }
  if (guessableReason(password, commonPasswords())) {
    weak.push({
      reason: 'pwned',
      message: 'Password is known to be weak and easy to guess, please choose a different one.',
    });
  }
  return { tooLong, weak };
}
