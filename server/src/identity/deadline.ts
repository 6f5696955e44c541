import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * How long all the identity calls of one GraphQL operation may take together, from its start: a
 * password change or reset is two calls, and each one's own timeout alone would let the pair run
 * past the 5 s within which an account operation must fail closed (F2); a second is left for the answer.
 */
export const OPERATION_DEADLINE_MS = 4000;

interface Operation {
  startedAt: number;
  ms: number;
  /** Made at the first identity call, so that operations that make none pay for no timer. */
  signal?: AbortSignal;
}

const operations = new AsyncLocalStorage<Operation>();

/** Runs `work` as one operation: every identity call it makes aborts once `ms` have passed since now. */
export function withOperationDeadline<T>(work: () => T, ms = OPERATION_DEADLINE_MS): T {
  return operations.run({ startedAt: performance.now(), ms }, work);
}

/** The running operation's deadline, or undefined outside one (background jobs keep per-call timeouts). */
export function operationDeadline(): AbortSignal | undefined {
  const operation = operations.getStore();
  if (!operation) return undefined;
  // AbortSignal.timeout takes whole milliseconds only (a fraction throws a RangeError).
  operation.signal ??= AbortSignal.timeout(
    Math.max(0, Math.ceil(operation.startedAt + operation.ms - performance.now())),
  );
  return operation.signal;
}
