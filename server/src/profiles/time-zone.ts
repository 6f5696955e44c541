import { badUserInput } from '../graphql/errors.js';

/**
 * An IANA time zone in its canonical spelling (`europe/oslo` is `Europe/Oslo`), or BAD_USER_INPUT
 * on `field` when the runtime does not know it.
 */
export function canonicalTimeZone(value: string, field: string): string {
  const zone = value.trim();
  try {
    if (zone.length === 0 || zone.length > 64) throw new RangeError(zone);
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    throw badUserInput(`${field.replace(/^input\./, '')} must be an IANA time zone such as Europe/London.`, field);
  }
}
