/**
 * Today's date on the visitor's clock, `YYYY-MM-DD`. Read from `Date`, which knows the visitor's
 * time zone without the cost of starting `Intl` (a tenth of a second on a slow phone). Without
 * React, so that a page's islands read it as the app does (lib/visitor-day.ts).
 */
export function visitorToday(now: Date = new Date()): string {
  const two = (value: number) => String(value).padStart(2, '0');
  return `${String(now.getFullYear()).padStart(4, '0')}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}
