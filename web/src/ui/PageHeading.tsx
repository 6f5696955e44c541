import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { usePageLocation } from './page-location';

/**
 * Navigation state for a new address that is still the same page (a query removed once handled):
 * the focus stays where the member left it instead of jumping to the heading.
 */
export const SAME_PAGE = { samePage: true } as const;

function isSamePage(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'samePage' in state && state.samePage === true;
}

/**
 * Whether the member's last action was with a pointer (mouse, finger, pen) rather than a key. The
 * browser's own guess for focus moved by script can draw a ring after a click; this one cannot.
 */
let pointerLast = false;
if (typeof document !== 'undefined') {
  document.addEventListener('pointerdown', () => (pointerLast = true), { capture: true, passive: true });
  document.addEventListener('keydown', () => (pointerLast = false), { capture: true, passive: true });
}

/**
 * A page's `<h1>`. After a navigation inside the app it takes the focus, so that screen readers
 * announce the new page and keyboard users start from its top; the first page load leaves the
 * focus where the browser puts it. Only keyboard users see a ring around it (`data-pointer-focus`
 * hides it after a click or a tap, see styles.css).
 */
export function PageHeading({ id, className, children }: { id: string; className?: string; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const { key, state } = usePageLocation();
  const samePage = isSamePage(state);
  useEffect(() => {
    // React Router gives the first location of a page load the key "default".
    const heading = ref.current;
    if (key === 'default' || samePage || !heading) return;
    heading.toggleAttribute('data-pointer-focus', pointerLast);
    heading.focus();
  }, [key, samePage]);
  return (
    <h1 id={id} ref={ref} tabIndex={-1} className={className}>
      {children}
    </h1>
  );
}
