/**
 * The password rules the server enforces and the web's strength meter applies before anything is
 * sent (`@rules/password`): the length limits and what is refused as easy to guess.
 */
import { isFaithPassword, PRINTABLE_ASCII } from './faith-words.js';

/** bcrypt's limit, kept so that accounts move freely between the embedded service and Supabase Auth. */
export const MAX_PASSWORD_BYTES = 72;

/** The product's minimum, whichever identity service is used. */
export const MIN_PASSWORD_LENGTH = 8;

/** Why a password is refused. */
export type PasswordRefusal = 'tooShort' | 'tooLong' | 'common' | 'faith';

/**
 * The blocklist from zxcvbn-ts's common-passwords list (or any part of it): the words a member
 * could choose (MIN_PASSWORD_LENGTH or more), lowercased, as passwords are compared.
 */
export function blocklistFrom(words: Iterable<string>): Set<string> {
  const blocklist = new Set<string>();
  for (const word of words) if (word.length >= MIN_PASSWORD_LENGTH) blocklist.add(word.toLowerCase());
  return blocklist;
}

/** Made at the first password that is not plain ASCII: starting Intl costs a page's start time. */
let graphemes: Intl.Segmenter | null = null;

/** Characters as people count them (grapheme clusters), so accents and emoji count once. */
export function passwordLength(password: string): number {
  if (PRINTABLE_ASCII.test(password)) return password.length;
  graphemes ??= new Intl.Segmenter();
  let count = 0;
  for (const _segment of graphemes.segment(password)) count++;
  return count;
}

/** The password's size in UTF-8, which MAX_PASSWORD_BYTES limits. */
export function passwordBytes(password: string): number {
  return new TextEncoder().encode(password).length;
}

/**
 * Why `password` is refused as easy to guess, or null: on the blocklist (compared lowercased), or a
 * faith word with at most digits, spaces and symbols around it ("Jesus1234").
 */
export function guessableReason(password: string, blocklist: ReadonlySet<string>): 'common' | 'faith' | null {
  if (blocklist.has(password.toLowerCase())) return 'common';
  return isFaithPassword(password) ? 'faith' : null;
}

/** Why the policy refuses `password`, or null: too short, too long, or easy to guess. */
export function passwordRefusal(
  password: string,
  blocklist: ReadonlySet<string>,
  minLength = MIN_PASSWORD_LENGTH,
): PasswordRefusal | null {
  if (passwordLength(password) < minLength) return 'tooShort';
  if (passwordBytes(password) > MAX_PASSWORD_BYTES) return 'tooLong';
  return guessableReason(password, blocklist);
}

/** What to tell a person whose password is refused, by reason. */
export const PASSWORD_REFUSAL_WORDS: Readonly<Record<PasswordRefusal, string>> = {
  tooShort: `Use at least ${MIN_PASSWORD_LENGTH} characters.`,
  tooLong: `That password is too long: use at most ${MAX_PASSWORD_BYTES} bytes (fewer characters if they are accented or emoji).`,
  common: 'This is one of the most common passwords, so it cannot be used. Choose another.',
  faith:
    'A faith word with numbers or symbols around it is among the first guesses, so it cannot be used. Add a few unrelated words.',
};
