import type { ValueTransformer } from 'typeorm';

/**
 * Timestamps are stored as ISO-8601 UTC text (`2026-11-21T06:30:00.000Z`): one column type that
 * means the same on SQLite and PostgreSQL, sorts correctly, and never shifts with a time zone.
 */
export const timestampTransformer: ValueTransformer = {
  to: (value: Date | null | undefined) => (value instanceof Date ? value.toISOString() : value),
  from: (value: string | null) => (value === null ? null : new Date(value)),
};

/** Column options for a timestamp (see `timestampTransformer`). */
export const timestampColumn = { type: 'varchar', length: 24, transformer: timestampTransformer } as const;
