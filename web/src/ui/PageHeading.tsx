import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { keyPressedLast } from './input-modality';
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
 * A page's `<h1>`. After a navigation inside the app it takes the focus, so that screen readers
 * announce the new page and keyboard users start from its top; the first page load leaves the
 * focus where the browser puts it. Only keyboard users see a ring around it (`data-pointer-focus`
 * hides it after a click, a tap or no action at all, see styles.css).
 */
export function PageHeading({ id, className, children }: { id: string; className?: string; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const { key, state } = usePageLocation();
  const samePage = isSamePage(state);
  useEffect(() => {
    // React Router gives the first location of a page load the key "default".
    const heading = ref.current;
    if (key === 'default' || samePage || !heading) return;
    heading.toggleAttribute('data-pointer-focus', !keyPressedLast());
    heading.focus();
  }, [key, samePage]);
  return (
    <h1 id={id} ref={ref} tabIndex={-1} className={className}>
      {children}
    </h1>
  );
}
