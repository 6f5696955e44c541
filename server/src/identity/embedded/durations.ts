const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Parses a Go duration (`24h`, `1h30m`, `90s`), as Supabase Auth's `ban_duration` takes; undefined when malformed. */
export function parseGoDuration(value: string): number | undefined {
  const match = /^([+-]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+$/.exec(value);
  if (!match) return value === '0' ? 0 : undefined;
  let total = 0;
  for (const part of value.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) {
    total += Number(part[1]) * (UNIT_MS[part[2] ?? ''] ?? 0);
  }
  return match[1] === '-' ? -total : total;
}
