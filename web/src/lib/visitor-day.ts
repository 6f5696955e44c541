import { useSyncExternalStore } from 'react';

/**
 * Today's date on the visitor's clock, `YYYY-MM-DD`. Read from `Date`, which knows the visitor's
 * time zone without the cost of starting `Intl` (a tenth of a second on a slow phone).
 */
export function visitorToday(now: Date = new Date()): string {
  const two = (value: number) => String(value).padStart(2, '0');
  return `${String(now.getFullYear()).padStart(4, '0')}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}

const unchanging = () => () => undefined;

/**
 * The visitor's date in a component the server may have rendered: undefined on the server, which
 * does not know it, and while the browser takes over the server's markup (so that the first render
 * matches it); the date from the next render on, and at once on a page the browser renders itself.
 */
export function useVisitorToday(): string | undefined {
  return useSyncExternalStore(unchanging, visitorToday, () => undefined);
}
