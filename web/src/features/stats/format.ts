const dayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const percentFormat = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });

/** `2026-11-25` as the reader's language writes a day (the stats' days are UTC days). */
export function formatDay(day: string): string {
  return dayFormat.format(new Date(`${day}T00:00:00Z`));
}

/** Clicks per view as a percentage. */
export function formatRate(rate: number): string {
  return percentFormat.format(rate);
}
