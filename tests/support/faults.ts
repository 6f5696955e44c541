import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';

/**
 * Makes every insert into `table` fail inside the database itself (a trigger), as a disk or
 * constraint failure would. Returns the function that removes the fault.
 */
export async function failInserts(dataSource: DataSource, table: string): Promise<() => Promise<void>> {
  const name = `fail_${table}_inserts`;
  if (dataSource.options.type === 'postgres') {
    await dataSource.query(
      `CREATE FUNCTION ${name}() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$ LANGUAGE plpgsql`,
    );
    await dataSource.query(
      `CREATE TRIGGER ${name} BEFORE INSERT ON "${table}" FOR EACH ROW EXECUTE FUNCTION ${name}()`,
    );
    return async () => {
      await dataSource.query(`DROP TRIGGER ${name} ON "${table}"`);
      await dataSource.query(`DROP FUNCTION ${name}()`);
    };
  }
  await dataSource.query(
    `CREATE TRIGGER ${name} BEFORE INSERT ON "${table}" BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
  );
  return async () => {
    await dataSource.query(`DROP TRIGGER ${name}`);
  };
}

export type FetchFault = 'unreachable' | 'response-lost' | 'server-error' | 'hang';

/** Never settles on its own; rejects as fetch does when `signal` aborts (with its reason). */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    const abort = () => {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted', { cause: signal.reason }));
    };
    if (signal.aborted) abort();
    signal.addEventListener('abort', abort, { once: true });
  });
}

/**
 * A fetch for the app's identity calls that fails the requests `matches` picks, at the HTTP
 * boundary: before sending (unreachable), after the identity service acted (the response is lost),
 * with a 503, or by never answering (hang: a service that accepted the connection and stalls, until
 * the caller aborts). Other requests go through untouched.
 */
export function faultyFetch(rule: { matches: (method: string, url: URL) => boolean; fault: FetchFault }): {
  fetch: typeof fetch;
  calls: number;
  enabled: boolean;
  /** What ended the last hung request: the name of its signal's reason (`TimeoutError` for a timeout). */
  endedBy: string | null;
} {
  const state = { calls: 0, enabled: true, fetch: fetch, endedBy: null as string | null };
  state.fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (!state.enabled || !rule.matches(request.method, url)) return fetch(request);
    state.calls += 1;
    if (rule.fault === 'unreachable') throw new TypeError('fetch failed: connect ECONNREFUSED (injected)');
    // The caller's own signal: a Request's copy follows it only while the Request lives (undici
    // holds its controller weakly), so a garbage collection meanwhile would leave it never aborting.
    if (rule.fault === 'hang') {
      return untilAborted(init?.signal ?? request.signal).catch((error: unknown) => {
        state.endedBy = error instanceof Error ? error.name : String(error);
        throw error;
      });
    }
    if (rule.fault === 'server-error') {
      return new Response(JSON.stringify({ code: 'unexpected_failure', message: 'injected failure' }), {
        status: 503,
        headers: { 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
      });
    }
    await fetch(request);
    throw new TypeError('fetch failed: socket hang up (injected after the request was served)');
  };
  return state;
}

/**
 * A fetch for the app's identity calls that, once `armed`, answers the first request only after
 * `delayMs` (a service slowing down) and never answers the later ones, until the caller aborts:
 * an operation's second identity call hangs after its first used most of the time.
 */
export function slowThenStalled(delayMs: number): { fetch: typeof fetch; calls: number; armed: boolean } {
  const state = { calls: 0, armed: false, fetch: fetch };
  state.fetch = async (input, init) => {
    if (!state.armed) return fetch(input, init);
    state.calls += 1;
    const signal = init?.signal ?? new AbortController().signal;
    if (state.calls > 1) return untilAborted(signal);
    await sleep(delayMs, undefined, { signal });
    return fetch(input, init);
  };
  return state;
}
