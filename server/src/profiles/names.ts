import { codePoints } from '../db/columns.js';
import { badUserInput } from '../graphql/errors.js';

/** A first name or profile name: 1–50 characters as the column counts them (code points). */
export const MAX_NAME_LENGTH = 50;

/** The name trimmed, or BAD_USER_INPUT on `field` when it is blank, too long or holds control characters. */
export function cleanName(value: string, field: string): string {
  const name = value.trim();
  const label = field.replace(/^input\./, '');
  // Code points, as the column counts them: an emoji with a variation selector is two.
  if (name.length === 0 || codePoints(name) > MAX_NAME_LENGTH) {
    throw badUserInput(`${label} must be 1 to ${MAX_NAME_LENGTH} characters`, field);
  }
  if (/\p{Cc}/u.test(name)) throw badUserInput(`${label} must not contain control characters`, field);
  return name;
}
