import { requestDeadline } from '../http/request-trace.js';

/**
 * How long all the identity calls of one GraphQL operation may take together, from its start: a
 * password change or reset is two calls, and each one's own timeout alone would let the pair run
 * past the 5 s within which an account operation must fail closed (F2); a second is left for the answer.
 */
export const OPERATION_DEADLINE_MS = 4000;

/** When identity calls made now must end if they belong to an operation starting now (`performance.now()`'s clock). */
export function operationEndsAt(ms = OPERATION_DEADLINE_MS): number {
  return performance.now() + ms;
}

/**
 * When the running operation's identity calls must have ended (on `performance.now()`'s clock),
 * or undefined outside one (background jobs keep per-call timeouts). A time rather than a signal:
 * each call makes one timer for whichever of its deadlines comes first. The operation's request
 * carries it (`withRequestTrace`, given `operationEndsAt()`), in the one context it runs in.
 */
export function operationDeadline(): number | undefined {
  return requestDeadline();
}
