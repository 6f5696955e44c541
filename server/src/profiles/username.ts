import type { GraphQLError } from 'graphql';
import { appError, ErrorCode } from '../graphql/errors.js';
import { normalUsername, usernameProblem } from '../rules/names.js';

/** A source of uniform numbers in [0, 1), like Math.random; tests pass a seeded one. */
export type RandomSource = () => number;

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Draws after which a generated username gets two random characters appended (product rule). */
export const PLAIN_DRAWS = 10;

/** Draws of a generated username made again before giving up on avoiding a reserved word. */
const RESERVED_REDRAWS = 50;

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
 * collisions) two random `[a-z0-9]` characters are appended. A draw that reads as a staff word is
 * made again.
 */
export function generateUsername(uid: string, first: string, draw: number, random: RandomSource): string {
  let username = drawUsername(uid, first, draw, random);
  // Digits read as letters can spell a staff word (`user574` + `ff`): such a draw is made again.
  for (let redraw = 0; redraw < RESERVED_REDRAWS && isReservedUsername(username); redraw++) {
    username = drawUsername(uid, first, draw, random);
  }
  return username;
}

function drawUsername(uid: string, first: string, draw: number, random: RandomSource): string {
  const number = 100 + Math.floor(random() * 999);
  const base = `user${number}${uid.charAt(0)}${asciiInitial(first)}`.toLowerCase();
  if (draw < PLAIN_DRAWS) return base;
  const suffix = Array.from({ length: 2 }, () => ALPHANUMERIC.charAt(Math.floor(random() * ALPHANUMERIC.length)));
  return base + suffix.join('');
}

/**
 * True when a username is reserved: a route word as the whole name (dots and underscores ignored),
 * or a staff word anywhere in it, digit look-alikes included (the shared rule in rules/names.ts).
 */
export function isReservedUsername(username: string): boolean {
  return usernameProblem(username)?.reason === 'RESERVED_USERNAME';
}

/** Normalizes a chosen username (trim, lowercase) and checks the rules; throws BAD_USER_INPUT. */
export function normalizeChosenUsername(input: string, field = 'username'): string {
  const username = normalUsername(input);
  const problem = usernameProblem(username);
  if (problem) throw appError(ErrorCode.BAD_USER_INPUT, problem.message, { field, reason: problem.reason });
  return username;
}

/** USERNAME_TAKEN on `field`, for a chosen username another member has. */
export function usernameTaken(username: string, field = 'username'): GraphQLError {
  return appError(ErrorCode.USERNAME_TAKEN, `The username "${username}" is taken. Please choose another.`, { field });
}
