/**
 * The rules for the names people choose: display names (a first name, a page's name) and
 * usernames. The GraphQL inputs, the sign-up and profile services and the web's forms all read
 * them from here (`@rules/names`).
 */

/** A first name or profile name: 1–50 characters as the column counts them (code points). */
export const MIN_NAME_LENGTH = 1;
export const MAX_NAME_LENGTH = 50;

/** A refusal of one of the rules below: a stable reason for clients and a sentence for people. */
export interface RuleProblem {
  reason: 'DIRECTION_CONTROL' | 'INVISIBLE_CHARACTER' | 'STACKED_MARKS' | 'USERNAME_FORMAT' | 'RESERVED_USERNAME';
  message: string;
}

/** Combining marks (accents, vowel signs, variation selectors) allowed on one character after NFC. */
export const MAX_MARKS_PER_CHARACTER = 3;

/** Bidi embeddings, overrides and isolates (U+202A–202E, U+2066–2069) and the direction marks. */
const DIRECTION_CONTROL = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;

/**
 * Characters that draw nothing: zero-width space, joiners and word joiner, invisible operators,
 * the BOM, soft hyphen, grapheme joiner, Mongolian vowel separator and the blank Hangul fillers.
 */
const INVISIBLE = /[\u200B-\u200D\u2060-\u2064\uFEFF\u00AD\u180E\u115F\u1160\u3164\uFFA0]|\u034F/u;

/** A zero-width joiner inside an emoji sequence (👨‍👩‍👧), which draws one picture. */
const EMOJI_JOINER =
  /(?<=\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?)\u200D(?=\p{Extended_Pictographic})/gu;

/** A zero-width non-joiner between letters of the scripts that spell with it (Persian, Indic). */
const SCRIPT_NON_JOINER =
  /(?<=[\p{Script=Arabic}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}])\u200C(?=[\p{Script=Arabic}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}])/gu;

const STACKED_MARKS = new RegExp(`\\p{M}{${MAX_MARKS_PER_CHARACTER + 1},}`, 'u');

/** A display name as stored: trimmed and in Unicode NFC (`e` + U+0301 becomes `é`). */
export function normalDisplayName(value: string): string {
  return value.trim().normalize('NFC');
}

/**
 * Why a display name (first name, page name) may not be shown, or null. It must be normalised
 * (normalDisplayName) first. Refused: text-direction controls, which reorder what follows
 * (`U+202E evil`); invisible characters, which make look-alikes (`Admin` + U+200B); and more than
 * MAX_MARKS_PER_CHARACTER combining marks on one character, which spill over the lines around.
 */
export function displayNameProblem(name: string): RuleProblem | null {
  if (DIRECTION_CONTROL.test(name)) {
    return { reason: 'DIRECTION_CONTROL', message: 'A name cannot contain text-direction controls.' };
  }
  if (INVISIBLE.test(name.replace(EMOJI_JOINER, '').replace(SCRIPT_NON_JOINER, ''))) {
    return { reason: 'INVISIBLE_CHARACTER', message: 'A name cannot contain invisible characters.' };
  }
  if (STACKED_MARKS.test(name)) {
    return {
      reason: 'STACKED_MARKS',
      message: `A name can have at most ${MAX_MARKS_PER_CHARACTER} accents or marks on one letter.`,
    };
  }
  return null;
}

/** Shortest and longest username a member may choose (generated ones are shorter). */
export const MIN_USERNAME_LENGTH = 3;
export const MAX_USERNAME_LENGTH = 30;

/** Words no member may take as a whole username: the app's routes and names of its parts. */
const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  'about',
  'account',
  'api',
  'app',
  'assets',
  'auth',
  'billing',
  'blog',
  'confirm',
  'contact',
  'dashboard',
  'edit',
  'graphql',
  'healthz',
  'home',
  'login',
  'logout',
  'me',
  'null',
  'playground',
  'plus',
  'privacy',
  'profile',
  'readyz',
  'register',
  'root',
  'settings',
  'signin',
  'signup',
  'static',
  'system',
  'terms',
  'undefined',
  'webhooks',
  'welcome',
  'www',
]);

/** Words that would pass a handle off as staff: refused anywhere in it, digit look-alikes too. */
export const STAFF_WORDS = [
  'support',
  'security',
  'official',
  'staff',
  'team',
  'help',
  'moderator',
  'admin',
  'lampstand',
] as const;

/** The digits that stand in for letters (`adm1n`, `supp0rt`, `5t4ff`). */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  a: '[a4]',
  e: '[e3]',
  i: '[i1]',
  l: '[l1]',
  o: '[o0]',
  s: '[s5]',
  t: '[t7]',
};

const STAFF_PATTERNS = STAFF_WORDS.map(
  (word) => new RegExp(Array.from(word, (letter) => LOOK_ALIKES[letter] ?? letter).join('')),
);

/** A chosen username as stored: trimmed and lowercased. */
export function normalUsername(value: string): string {
  return value.trim().toLowerCase();
}

/**
 * Why a username (normalised with normalUsername) may not be chosen, or null: 3–30 of
 * `a-z 0-9 . _` starting with a letter or digit; not a route word (dots and underscores ignored:
 * `a_d_m_i_n` is `admin`); no staff word anywhere in it, digits read as letters (`the.adm1n`).
 */
export function usernameProblem(username: string): RuleProblem | null {
  const format = new RegExp(`^[a-z0-9][a-z0-9_.]{${MIN_USERNAME_LENGTH - 1},${MAX_USERNAME_LENGTH - 1}}$`);
  if (!format.test(username)) {
    return {
      reason: 'USERNAME_FORMAT',
      message: `A username must be ${MIN_USERNAME_LENGTH}–${MAX_USERNAME_LENGTH} characters: lowercase letters, digits, dots and underscores, starting with a letter or digit.`,
    };
  }
  const bare = username.replace(/[._]/g, '');
  if (RESERVED_USERNAMES.has(bare) || STAFF_PATTERNS.some((pattern) => pattern.test(bare))) {
    return { reason: 'RESERVED_USERNAME', message: `"${username}" is reserved. Please choose another username.` };
  }
  return null;
}
