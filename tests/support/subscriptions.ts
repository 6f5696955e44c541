import type { Client } from 'graphql-ws';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

/** What one subscription has heard: its results, and whether and how it ended. */
export interface Heard<T = Record<string, unknown>> {
  results: { data?: T | null; errors?: readonly { message: string; extensions?: Record<string, unknown> }[] }[];
  errors: unknown[];
  completed: boolean;
  /**
   * Waits for a result (or the end) beyond the first `since` heard (by default: those heard so
   * far); resolves to false when `ms` pass first.
   */
  next(ms?: number, since?: number): Promise<boolean>;
  /** Ends the subscription from the client's side. */
  stop(): void;
}

export interface SubscriptionClient {
  client: Client;
  subscribe<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>): Heard<T>;
  /** The close event's code, once the server closed the connection. */
  closed(): Promise<number>;
  dispose(): Promise<void>;
}

/** A real graphql-ws client (the `ws` WebSocket) on `url`'s `/graphql`, signed in with `accessToken` when given. */
export function subscriptionClient(url: string, accessToken?: string): SubscriptionClient {
  let closedWith: ((code: number) => void) | undefined;
  const closed = new Promise<number>((resolve) => {
    closedWith = resolve;
  });
  const client = createClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
    retryAttempts: 0,
    lazy: true,
    on: {
      closed: (event) => {
        closedWith?.((event as { code: number }).code);
      },
    },
  });
  return {
    client,
    subscribe<T>(query: string, variables: Record<string, unknown> = {}): Heard<T> {
      let wake: (() => void) | undefined;
      const poke = (): void => {
        wake?.();
      };
      const heard: Heard<T> = {
        results: [],
        errors: [],
        completed: false,
        next(ms = 20_000, since = heard.results.length + heard.errors.length) {
          const seen = since;
          return new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => {
              resolve(false);
            }, ms);
            const check = (): void => {
              if (heard.results.length + heard.errors.length > seen || heard.completed) {
                clearTimeout(timer);
                resolve(true);
              }
            };
            wake = check;
            check();
          });
        },
        stop: () => undefined,
      };
      heard.stop = client.subscribe<T>(
        { query, variables },
        {
          next: (result) => {
            heard.results.push(result);
            poke();
          },
          error: (error) => {
            heard.errors.push(error);
            poke();
          },
          complete: () => {
            heard.completed = true;
            poke();
          },
        },
      );
      return heard;
    },
    closed: () => closed,
    dispose: () => client.dispose() as Promise<void>,
  };
}

/**
 * Does `act` until `heard` hears something: a subscription's first events may be published before
 * the server has started listening (nothing in the protocol says when it has), so the test acts
 * again, each time as a new visitor or edit, until one arrives; at most `times` times.
 */
export async function actUntilHeard(
  heard: Heard<unknown>,
  act: (attempt: number) => Promise<unknown>,
  times = 40,
): Promise<void> {
  const before = heard.results.length + heard.errors.length;
  for (let attempt = 0; attempt < times; attempt++) {
    await act(attempt);
    if (await heard.next(500, before)) return;
  }
  throw new Error(`nothing was heard after acting ${times} times`);
}
