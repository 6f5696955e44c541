import { createContext, useCallback, useContext, useLayoutEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';

/**
 * Goes to the home page with `notice`, and runs `end` (which signs out) once it shows; `replace`
 * takes the member's screen out of the history (an account that is gone).
 */
type LeaveSignedOut = (end: () => Promise<void>, notice: string, options?: { replace?: boolean }) => void;

const LeaveContext = createContext<LeaveSignedOut | null>(null);

/**
 * Leaving a member's screen on sign-out or account deletion. Navigations are transitions, so a
 * session ended first would reach the member's screen before the home page replaced it, and
 * RequireAuth would send the visitor to the log-in page. Here the session ends in the commit that
 * shows the home page, before the browser paints it.
 */
export function SignOutNavigation({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const { key } = useLocation();
  const pending = useRef<(() => Promise<void>) | null>(null);
  useLayoutEffect(() => {
    const end = pending.current;
    pending.current = null;
    if (end) void end();
  }, [key]);
  const leave = useCallback<LeaveSignedOut>(
    (end, notice, options = {}) => {
      pending.current = end;
      void navigate('/', { replace: options.replace, state: { notice } });
    },
    [navigate],
  );
  return <LeaveContext value={leave}>{children}</LeaveContext>;
}

export function useLeaveSignedOut(): LeaveSignedOut {
  const leave = useContext(LeaveContext);
  if (!leave) throw new Error('useLeaveSignedOut() needs a <SignOutNavigation> above it');
  return leave;
}
