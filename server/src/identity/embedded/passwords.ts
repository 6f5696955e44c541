import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';
import { passwordProblems, passwordTooLong } from '../password-policy.js';
import { ApiError, validationFailed } from './errors.js';

/** OWASP's argon2id parameters: 19 MiB, two passes, one lane (the library's default algorithm is argon2id). */
export const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

const BCRYPT_PREFIX = /^\$2[aby]\$\d{2}\$/;
const ARGON2_PREFIX = /^\$argon2(id|i|d)\$/;

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

/** Rejects a password over 72 bytes with Supabase Auth's `validation_failed`. */
export function checkPasswordLength(password: string): void {
  const tooLong = passwordTooLong(password);
  if (tooLong) throw validationFailed(tooLong);
}

/**
 * The product's password policy (password-policy.ts) as Supabase Auth reports it: over 72 bytes
 * is `validation_failed`, too short or too common is `weak_password` with its reasons.
 */
export function checkPasswordStrength(password: string, minLength: number): void {
  const { tooLong, weak } = passwordProblems(password, minLength);
  if (tooLong) throw validationFailed(tooLong);
  if (weak.length > 0) {
    throw new ApiError(
      422,
      'weak_password',
      weak.map((problem) => problem.message).join(' '),
      weak.map((problem) => problem.reason),
    );
  }
}

/** A random password for accounts made without one (admin create, generated sign-up links). */
export function generatedPassword(): string {
  return randomBytes(48).toString('base64url');
}
