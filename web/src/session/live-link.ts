import { ApolloLink } from '@apollo/client';
import { Observable } from 'rxjs';
import type { TokenSource } from './auth-link';
import type { LiveSocket } from './live-socket';

/**
 * The socket's code loads with the first subscription, not with the app: `graphql-ws` and Apollo's
 * link for it stay out of every page that subscribes to nothing (quality.md P7).
 */
const liveSocketModule = () => import('./live-socket');

/** The subscriptions' side of the split link, with what AuthClient needs to steer its socket. */
export interface LiveLink {
  link: ApolloLink;
  /** The access token changed (a refresh, another tab): reconnect so the server sees the new one. */
  restart(): void;
  /** The session ended: close the socket; the next subscription opens a new one. */
  close(): void;
}

/**
 * Sends subscriptions over one WebSocket (graphql-ws, on `/graphql`), opened when the first
 * subscription starts and closed when the last one ends. The token is read at each connection, so
 * a reconnection always carries the current one.
 */
export function createLiveLink(tokens: TokenSource): LiveLink {
  let socket: Promise<LiveSocket> | null = null;
  const open = () => (socket ??= liveSocketModule().then(({ openLiveSocket }) => openLiveSocket(tokens)));

  const link = new ApolloLink(
    (operation) =>
      new Observable<ApolloLink.Result>((observer) => {
        let inner: { unsubscribe(): void } | null = null;
        let stopped = false;
        open().then(
          (live) => {
            if (!stopped) inner = live.request(operation).subscribe(observer);
          },
          (error: unknown) => {
            // The chunk could not load (offline, or a new version replaced it): the screen shows it.
            observer.error(error);
          },
        );
        return () => {
          stopped = true;
          inner?.unsubscribe();
        };
      }),
  );

  return {
    link,
    restart() {
      void socket?.then((live) => {
        live.restart();
      });
    },
    close() {
      const closing = socket;
      socket = null;
      void closing?.then((live) => {
        live.dispose();
      });
    },
  };
}
