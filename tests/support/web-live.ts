// The API's subscriptions as the web components meet them in happy-dom: a real graphql-ws server
// over a real WebSocket (the `ws` package) on a free port, answering from the committed schema, and
// the page's `WebSocket` pointed at it. The test decides what each subscription field sends.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { vi } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';

const schemaFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schema.graphql');

interface Listener {
  push(value: unknown): void;
}

export interface LiveApi {
  /** The `authorization` each connection sent in `connection_init`, in order. */
  readonly authorizations: (string | undefined)[];
  /** Sends `value` to everyone subscribed to `field` now. */
  publish(field: string, value: unknown): void;
  /** Resolves once `count` subscriptions to `field` are running. */
  subscribed(field: string, count?: number): Promise<void>;
  /** How many subscriptions to `field` are running. */
  running(field: string): number;
  /** How many sockets are open. */
  sockets(): number;
  /** Closes every open socket from the server's side with `code` (4401: the token expired or the session ended). */
  closeSockets(code: number, reason: string): void;
  /** From now on closes each new connection with `code` at its `connection_init`, as a refused token is (null: accept). */
  refuseWith(code: number | null): void;
  close(): Promise<void>;
}

/** Starts the server and stubs the page's `WebSocket` so that `/graphql`'s socket reaches it. */
export async function startLiveApi(): Promise<LiveApi> {
  const schema = buildSchema(readFileSync(schemaFile, 'utf8'));
  const listeners = new Map<string, Set<Listener>>();
  const waiting = new Set<() => void>();
  const authorizations: (string | undefined)[] = [];
  let refusal: number | null = null;
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  const port = (wss.address() as AddressInfo).port;

  const listenersOf = (field: string) => {
    let set = listeners.get(field);
    if (!set) listeners.set(field, (set = new Set()));
    return set;
  };

  /** An async iterator of the values published to `field`, as a subscribe resolver returns. */
  function follow(field: string): AsyncIterableIterator<unknown> {
    const queue: unknown[] = [];
    let wake: (() => void) | null = null;
    let done = false;
    const listener: Listener = {
      push(value) {
        queue.push({ [field]: value });
        wake?.();
      },
    };
    listenersOf(field).add(listener);
    for (const check of waiting) check();
    const stop = () => {
      done = true;
      listenersOf(field).delete(listener);
      wake?.();
    };
    return {
      [Symbol.asyncIterator]() {
        return this;
      },
      async next() {
        while (queue.length === 0 && !done) await new Promise<void>((resolve) => (wake = resolve));
        if (queue.length > 0) return { value: queue.shift(), done: false };
        return { value: undefined, done: true };
      },
      return() {
        stop();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }

  const fields = Object.keys(schema.getSubscriptionType()?.getFields() ?? {});
  const subscription = Object.fromEntries(fields.map((field) => [field, () => follow(field)]));
  const server = useServer(
    {
      schema,
      roots: { subscription },
      onConnect: (context) => {
        const authorization = context.connectionParams?.authorization;
        authorizations.push(typeof authorization === 'string' ? authorization : undefined);
        if (refusal !== null) context.extra.socket.close(refusal, 'Unauthorized');
      },
    },
    wss,
  );

  // The app opens `ws://<page host>/graphql`; this test's server listens on its own port.
  class TestWebSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      const target = new URL(url);
      super(`ws://127.0.0.1:${port}${target.pathname}`, protocols);
    }
  }
  vi.stubGlobal('WebSocket', TestWebSocket);

  const running = (field: string) => listenersOf(field).size;
  return {
    authorizations,
    publish(field, value) {
      for (const listener of listenersOf(field)) listener.push(value);
    },
    subscribed(field, count = 1) {
      return new Promise<void>((resolve) => {
        const check = () => {
          if (running(field) < count) return;
          waiting.delete(check);
          resolve();
        };
        waiting.add(check);
        check();
      });
    },
    running,
    sockets: () => wss.clients.size,
    refuseWith(code) {
      refusal = code;
    },
    closeSockets(code, reason) {
      for (const client of wss.clients) client.close(code, reason);
    },
    async close() {
      for (const client of wss.clients) client.terminate();
      await server.dispose();
      await new Promise<void>((resolve) => {
        wss.close(() => {
          resolve();
        });
      });
    },
  };
}
