import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';
import bcrypt from 'bcryptjs';
import { ApiError, validationFailed } from './errors.js';

/** OWASP's argon2id parameters: 19 MiB, two passes, one lane (the library's default algorithm is argon2id). */
export const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** bcrypt's limit, kept so that accounts move freely between this service and Supabase Auth. */
export const MAX_PASSWORD_BYTES = 72;

const BCRYPT_PREFIX = /^\$2[aby]\$\d{2}\$/;
const ARGON2_PREFIX = /^\$argon2(id|i|d)\$/;

/** Common passwords (zxcvbn-ts's list, ~18k of 8+ characters), compared case-insensitively. */
const blocklist = new Set(
  dictionary['passwords-common'].filter((word) => word.length >= 8).map((word) => word.toLowerCase()),
);

/** Hashes a password with argon2id. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** True when the string is a hash this service can verify (argon2, or bcrypt imported from Supabase). */
export function isSupportedHash(value: string): boolean {
  return ARGON2_PREFIX.test(value) || (BCRYPT_PREFIX.test(value) && value.length === 60);
}

/** Whether a stored hash was made by an older scheme and should be replaced after a successful sign-in. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith('$argon2id$');
}

/** Checks a password against a stored argon2 or bcrypt hash. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  if (ARGON2_PREFIX.test(stored)) return verify(stored, password);
  if (BCRYPT_PREFIX.test(stored)) return bcrypt.compare(password, stored);
  return false;
}

/** A hash with the same cost as a real one, verified when an account is missing so timing tells nothing. */
let decoyHash: Promise<string> | undefined;
export async function verifyDecoy(password: string): Promise<void> {
  decoyHash ??= hashPassword('lampstand-decoy-password');
  await verify(await decoyHash, password);
}

/** Characters as people count them (grapheme clusters), so accents and emoji count once. */
function characterCount(value: string): number {
  let count = 0;
  for (const _segment of new Intl.Segmenter().segment(value)) count++;
  return count;
}

/** Rejects a password over 72 bytes with Supabase Auth's `validation_failed`. */
export function checkPasswordLength(password: string): void {
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) {
    throw validationFailed(`Password cannot be longer than ${MAX_PASSWORD_BYTES} characters (bytes in UTF-8)`);
  }
}

/**
 * The product's password policy: at most 72 bytes, at least `minLength` characters, not on the
 * common-passwords blocklist. No composition rules. Failures are Supabase Auth's `weak_password`.
 */
export function checkPasswordStrength(password: string, minLength: number): void {
  checkPasswordLength(password);
  const reasons: string[] = [];
  const messages: string[] = [];
  if (characterCount(password) < minLength) {
    reasons.push('length');
    messages.push(`Password should be at least ${minLength} characters.`);
  }
  if (blocklist.has(password.toLowerCase())) {
    reasons.push('pwned');
    messages.push('Password is known to be weak and easy to guess, please choose a different one.');
  }
  if (reasons.length > 0) throw new ApiError(422, 'weak_password', messages.join(' '), reasons);
}
