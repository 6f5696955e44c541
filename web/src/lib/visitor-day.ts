import { useSyncExternalStore } from 'react';
import { visitorToday } from './visitor-today';

const unchanging = () => () => undefined;

/**
 * The visitor's date in a component the server may have rendered: undefined on the server, which
 * does not know it, and while the browser takes over the server's markup (so that the first render
 * matches it); the date from the next render on, and at once on a page the browser renders itself.
 */
export function useVisitorToday(): string | undefined {
  return useSyncExternalStore(unchanging, visitorToday, () => undefined);
}
