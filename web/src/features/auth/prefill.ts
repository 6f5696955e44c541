/**
 * The email address a screen hands to the next one in the history state (`{ email }`), e.g. from
 * sign-up to "Log in" and "Reset your password": never in the address, which logs and tags read.
 */
export function prefilledEmail(state: unknown): string {
  if (typeof state !== 'object' || state === null || !('email' in state)) return '';
  return typeof state.email === 'string' ? state.email : '';
}
