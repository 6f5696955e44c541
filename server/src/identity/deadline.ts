import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * How long all the identity calls of one GraphQL operation may take together, from its start: a
 * password change or reset is two calls, and each one's own timeout alone would let the pair run
 * past the 5 s within which an account operation must fail closed (F2); a second is left for the answer.
 */
export const OPERATION_DEADLINE_MS = 4000;

interface Operation {
  /** When the operation's identity calls must have ended, on `performance.now()`'s clock. */
  endsAt: number;
}

const operations = new AsyncLocalStorage<Operation>();

/** Runs `work` as one operation: every identity call it makes aborts once `ms` have passed since now. */
export function withOperationDeadline<T>(work: () => T, ms = OPERATION_DEADLINE_MS): T {
  return operations.run({ endsAt: performance.now() + ms }, work);
}

/**
 * When the running operation's identity calls must have ended (on `performance.now()`'s clock),
 * or undefined outside one (background jobs keep per-call timeouts). A time rather than a signal:
 * each call makes one timer for whichever of its deadlines comes first.
 */
export function operationDeadline(): number | undefined {
  return operations.getStore()?.endsAt;
}
