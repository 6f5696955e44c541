import { useEffect } from 'react';

/** What the member is asked before leaving a screen with unsaved changes. */
export const LEAVE_QUESTION = 'You have unsaved changes. Leave this page and lose them?';

/** True for a plain left click on a link to another address in this app. */
function isInAppNavigation(event: MouseEvent): boolean {
  if (event.defaultPrevented || event.button !== 0) return false;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || (link.target && link.target !== '_self')) return false;
  const to = new URL(link.href, window.location.href);
  return (
    to.origin === window.location.origin &&
    (to.pathname !== window.location.pathname || to.search !== window.location.search)
  );
}

/**
 * While `dirty`, asks before the member leaves: through a link in the app (the router has no
 * blocker outside a data router, so clicks are caught before it sees them), and on reload, closing
 * the tab or going to another site (`beforeunload`, where the browser asks in its own words).
 */
export function useLeaveWarning(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    const onClick = (event: MouseEvent) => {
      if (!isInAppNavigation(event) || window.confirm(LEAVE_QUESTION)) return;
      event.preventDefault();
      event.stopPropagation();
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    // Capture on the document runs before React's own listeners on its root, and so before <Link>.
    document.addEventListener('click', onClick, true);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [dirty]);
}
