import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';

/**
 * A page's `<h1>`. After a navigation inside the app it takes the focus, so that screen readers
 * announce the new page and keyboard users start from its top; the first page load leaves the
 * focus where the browser puts it.
 */
export function PageHeading({ id, className, children }: { id: string; className?: string; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const { key } = useLocation();
  useEffect(() => {
    // React Router gives the first location of a page load the key "default".
    if (key !== 'default') ref.current?.focus();
  }, [key]);
  return (
    <h1 id={id} ref={ref} tabIndex={-1} className={className}>
      {children}
    </h1>
  );
}
