import {
  displayNameProblem,
  MAX_NAME_LENGTH,
  MAX_USERNAME_LENGTH,
  MIN_NAME_LENGTH,
  MIN_USERNAME_LENGTH,
  normalDisplayName,
  normalUsername,
  usernameProblem as usernameRuleProblem,
} from '@rules/names';
import {
  MAX_PASSWORD_BYTES,
  MIN_PASSWORD_LENGTH,
  PASSWORD_REFUSAL_WORDS,
  passwordBytes,
  passwordLength,
} from '@rules/password';
import type { BirthdayRefusal } from '@rules/signup';
import { birthdayRefusal, EMAIL_SHAPE, MAX_EMAIL_LENGTH, MINIMUM_AGE_YEARS } from '@rules/signup';

/** The checks the API makes, made early so that people learn of a mistake beside the field. */

export function emailProblem(email: string): string | null {
  if (email.trim() === '') return 'Enter your email address.';
  if (email.trim().length > MAX_EMAIL_LENGTH) return `Use at most ${MAX_EMAIL_LENGTH} characters.`;
  return EMAIL_SHAPE.test(email.trim()) ? null : 'Enter an email address like name@example.com.';
}

/**
 * The password policy's limits (rules/password.ts): the strength meter, loaded with the first
 * keystroke, also applies its blocklist, and the API checks it all.
 */
export function passwordProblem(password: string): string | null {
  if (password === '') return 'Enter a password.';
  if (passwordLength(password) < MIN_PASSWORD_LENGTH) return PASSWORD_REFUSAL_WORDS.tooShort;
  return passwordBytes(password) > MAX_PASSWORD_BYTES ? PASSWORD_REFUSAL_WORDS.tooLong : null;
}

export function firstNameProblem(first: string): string | null {
  const trimmed = normalDisplayName(first);
  const length = Array.from(trimmed).length;
  if (length < MIN_NAME_LENGTH) return 'Enter your first name.';
  return length > MAX_NAME_LENGTH ? `Use at most ${MAX_NAME_LENGTH} characters.` : nameRuleProblem(trimmed);
}

/** The name to show on a page: present, and without what the shared rule refuses. */
export function pageNameProblem(name: string): string | null {
  const trimmed = normalDisplayName(name);
  return trimmed === '' ? 'Enter the name to show on your page.' : nameRuleProblem(trimmed);
}

function nameRuleProblem(name: string): string | null {
  return displayNameProblem(name)?.message ?? null;
}

const BIRTHDAY_WORDS: Readonly<Record<BirthdayRefusal, string>> = {
  notADate: 'Enter a real date.',
  notPast: 'Your birthday must be in the past.',
  tooYoung: `You must be at least ${MINIMUM_AGE_YEARS} years old to join.`,
};

/** Members must be MINIMUM_AGE_YEARS or older; the birthday is optional. `today` is an ISO date. */
export function birthdayProblem(birthday: string, today = new Date().toISOString().slice(0, 10)): string | null {
  if (birthday === '') return null;
  const refusal = birthdayRefusal(birthday, today);
  return refusal === null ? null : BIRTHDAY_WORDS[refusal];
}

export function usernameProblem(username: string): string | null {
  const value = normalUsername(username);
  if (value.length < MIN_USERNAME_LENGTH || value.length > MAX_USERNAME_LENGTH) {
    return `Use ${MIN_USERNAME_LENGTH} to ${MAX_USERNAME_LENGTH} characters.`;
  }
  if (!/^[a-z0-9][a-z0-9_.]*$/.test(value)) {
    return 'Use lowercase letters, digits, dots and underscores, starting with a letter or digit.';
  }
  return usernameRuleProblem(value)?.message ?? null;
}

/** What makes an authenticator app's code worth sending: six digits (spaces, as apps show them, are dropped). */
export function codeProblem(code: string): string | null {
  return /^\d{6}$/.test(code.replace(/\s/g, '')) ? null : 'Enter the 6-digit code from your authenticator app.';
}
