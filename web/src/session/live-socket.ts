import type { ApolloLink } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { CloseCode, createClient } from 'graphql-ws';
import type { Observable } from 'rxjs';
import { from, mergeMap, of, retry, throwError } from 'rxjs';
import { liveUrl } from '../lib/live-url';
import type { TokenSource } from './auth-link';

/** What graphql-ws closes with when the client asks it to reconnect (its own code for a restart). */
const RESTART_CODE = 4205;
/** Longest wait between two tries to reconnect after the network or the server dropped the socket. */
const MAX_RETRY_WAIT_MS = 30_000;

/** The open subscriptions' socket: loaded with the first subscription (see live-link.ts). */
export interface LiveSocket {
  request(operation: ApolloLink.Operation): Observable<ApolloLink.Result>;
  restart(): void;
  dispose(): void;
}

/**
 * A graphql-ws client that sends the member's current token in `connection_init`. The server checks
 * the token only there, so a new token (a refresh) means a new connection: `restart` closes the
 * socket and graphql-ws reopens it at once with every subscription still running. When the server
 * refuses the token (4403, or the session ended or its token expired: 4401), the session is renewed
 * before the next try, as the HTTP link does on a 401, once until a connection is accepted again; if
 * it cannot be, AuthClient signs out and disposes of this socket. graphql-ws gives up on a 4401 and
 * ends the subscriptions with an error, so each is subscribed again once the session is renewed.
 */
export function openLiveSocket(tokens: TokenSource): LiveSocket {
  let sentToken: string | null = null;
  let open: WebSocket | null = null;
  let restarting = false;
  let renewal: Promise<boolean> | null = null;
  /** A renewal was tried and no connection has been accepted since: a refused token is not renewed again. */
  let renewedSinceAccepted = false;

  const client = createClient({
    url: liveUrl(),
    connectionParams: () => {
      sentToken = tokens.accessToken();
      return sentToken ? { authorization: `Bearer ${sentToken}` } : {};
    },
    // Live screens stay live through a dropped network: keep trying, never more than 30 s apart.
    retryAttempts: Number.POSITIVE_INFINITY,
    shouldRetry: () => true,
    retryWait: async (retries) => {
      if (restarting) {
        restarting = false;
        return;
      }
      if (renewal) {
        const renewing = renewal;
        renewal = null;
        await renewing;
        return;
      }
      const wait = Math.min(MAX_RETRY_WAIT_MS, 1000 * 2 ** retries) + Math.floor(Math.random() * 1000);
      await new Promise((resolve) => setTimeout(resolve, wait));
    },
    on: {
      opened: (socket) => {
        open = socket as WebSocket;
      },
      connected: () => {
        renewedSinceAccepted = false;
        renewal = null;
      },
      closed: (event) => {
        open = null;
        const code = (event as CloseEvent | undefined)?.code;
        if (code === CloseCode.Forbidden || code === CloseCode.Unauthorized) {
          // A token refused again after a renewal: no renewal now, so the subscriptions end with their error.
          renewal = sentToken && !renewedSinceAccepted ? tokens.renew(sentToken) : null;
          renewedSinceAccepted = true;
        }
      },
    },
  });
  const link = new GraphQLWsLink(client);
  // After a 4401 the subscription ends with an error; with the session renewed it starts again on a
  // new connection, else the error stands (and AuthClient has signed out).
  const againOnceRenewed = (error: unknown) => {
    const renewing = renewal;
    if (!renewing) return throwError(() => error);
    return from(renewing).pipe(mergeMap((renewed) => (renewed ? of(true) : throwError(() => error))));
  };

  return {
    request: (operation) => link.request(operation).pipe(retry({ delay: againOnceRenewed })),
    restart() {
      if (open?.readyState !== WebSocket.OPEN) return;
      restarting = true;
      open.close(RESTART_CODE, 'Client Restart');
    },
    dispose() {
      void client.dispose();
    },
  };
}
