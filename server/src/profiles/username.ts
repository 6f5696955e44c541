import type { GraphQLError } from 'graphql';
import { appError, badUserInput, ErrorCode } from '../graphql/errors.js';

/** A source of uniform numbers in [0, 1), like Math.random; tests pass a seeded one. */
export type RandomSource = () => number;

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Draws after which a generated username gets two random characters appended (product rule). */
export const PLAIN_DRAWS = 10;

/** The first character of a name reduced to ASCII (`É` → `e`); `x` when nothing usable is left. */
export function asciiInitial(name: string): string {
  const first = Array.from(name.trim())[0] ?? '';
  const reduced = first
    .normalize('NFD')
    .replace(/\p{Mark}/gu, '')
    .toLowerCase();
  return /^[a-z0-9]$/.test(reduced) ? reduced : 'x';
}

/**
 * The original's username: `user` + a random integer 100..1098 + the first character of the user
 * id + the first character of the first name, lowercased. From the eleventh draw on (after ten
 * collisions) two random `[a-z0-9]` characters are appended.
 */
export function generateUsername(uid: string, first: string, draw: number, random: RandomSource): string {
  const number = 100 + Math.floor(random() * 999);
  const base = `user${number}${uid.charAt(0)}${asciiInitial(first)}`.toLowerCase();
  if (draw < PLAIN_DRAWS) return base;
  const suffix = Array.from({ length: 2 }, () => ALPHANUMERIC.charAt(Math.floor(random() * ALPHANUMERIC.length)));
  return base + suffix.join('');
}

/** Words no member may take as a username: app routes, and names that would pass for staff. */
const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  'about',
  'account',
  'admin',
  'administrator',
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
  'help',
  'home',
  'lampstand',
  'login',
  'logout',
  'me',
  'moderator',
  'null',
  'official',
  'playground',
  'plus',
  'privacy',
  'profile',
  'readyz',
  'register',
  'root',
  'security',
  'settings',
  'signin',
  'signup',
  'staff',
  'static',
  'support',
  'system',
  'terms',
  'undefined',
  'webhooks',
  'welcome',
  'www',
]);

/** The product's name: refused anywhere in a username (`lampstand.support`, `thelampstand`). */
const PRODUCT_NAME = 'lampstand';

/**
 * Staff titles: refused as a part of a username between dots and underscores, or at a part's start
 * or end (`the_admin`, `site.admin.team`, `adminteam`), but not inside a word (`badminton`).
 */
const STAFF_WORDS = ['admin', 'moderator'];

/**
 * True when a username is reserved: dots and underscores are ignored (`admin.` and `a_d_m_i_n` are
 * `admin`), route and staff words are refused as the whole name, the product's name anywhere in
 * it, and staff titles at the edges of its parts.
 */
export function isReservedUsername(username: string): boolean {
  const bare = username.replace(/[._]/g, '');
  if (RESERVED_USERNAMES.has(bare) || bare.includes(PRODUCT_NAME)) return true;
  const parts = username.split(/[._]+/).filter((part) => part.length > 0);
  return STAFF_WORDS.some((word) => parts.some((part) => part.startsWith(word) || part.endsWith(word)));
}

/** Longest username a member may choose (generated ones are shorter). */
export const MAX_USERNAME_LENGTH = 30;

const USERNAME_RULE =
  '3–30 characters: lowercase letters, digits, dots and underscores, starting with a letter or digit';

/** Normalizes a chosen username (trim, lowercase) and checks the rules; throws BAD_USER_INPUT. */
export function normalizeChosenUsername(input: string, field = 'username'): string {
  const username = input.trim().toLowerCase();
  if (!/^[a-z0-9][a-z0-9_.]{2,29}$/.test(username)) {
    throw badUserInput(`A username must be ${USERNAME_RULE}.`, field);
  }
  if (isReservedUsername(username)) {
    throw badUserInput(`"${username}" is reserved. Please choose another username.`, field);
  }
  return username;
}

/** USERNAME_TAKEN on `field`, for a chosen username another member has. */
export function usernameTaken(username: string, field = 'username'): GraphQLError {
  return appError(ErrorCode.USERNAME_TAKEN, `The username "${username}" is taken. Please choose another.`, { field });
}
