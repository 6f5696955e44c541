import type { ValueTransformer } from 'typeorm';

/**
 * Timestamps are stored as epoch milliseconds in a `bigint` column: one type that means the same
 * on SQLite and PostgreSQL, sorts and compares as a number, and never shifts with a time zone.
 */
export const epochMs: ValueTransformer = {
  to: (value: Date | null | undefined) => (value instanceof Date ? value.getTime() : value),
  from: (value: string | number | null) => (value === null ? null : new Date(Number(value))),
};

/** Column options for a timestamp (see `epochMs`). */
export const timestampColumn = { type: 'bigint', transformer: epochMs } as const;

/** A string's length as a varchar column counts it: code points, not UTF-16 units (an emoji is one or more). */
export function codePoints(value: string): number {
  return Array.from(value).length;
}
