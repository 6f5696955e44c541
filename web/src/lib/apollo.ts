import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { isSubscriptionOperation } from '@apollo/client/utilities';

/**
 * The browser's GraphQL client; the API lives on the same origin as the app. `authLink` adds the
 * member's token (see auth/auth-link.ts). `live` carries subscriptions (session/live-link.ts, a
 * WebSocket); queries and mutations go over HTTP. `ssrMode` is for the server's rendering of a page,
 * which reads answers put in the cache beforehand and never asks the network.
 */
export function createApolloClient(
  authLink?: ApolloLink,
  options: { ssrMode?: boolean; live?: ApolloLink } = {},
): ApolloClient {
  const http = new HttpLink({ uri: '/graphql' });
  const overHttp = authLink ? ApolloLink.from([authLink, http]) : http;
  return new ApolloClient({
    ssrMode: options.ssrMode ?? false,
    link: options.live
      ? ApolloLink.split(({ query }) => isSubscriptionOperation(query), options.live, overHttp)
      : overHttp,
    cache: new InMemoryCache({
      typePolicies: {
        // Verse texts never change: one cache entry per OSIS id and translation (the KJV's and the
        // WEB's John 3:16 share an id, and one must not overwrite the other).
        Verse: { keyFields: ['id', 'translation'] },
        // A public page is its address: one entry per username.
        PublicProfile: { keyFields: ['username'] },
        User: { keyFields: ['uid'] },
        // The signed-in member and their profile have no id of their own: screens asking for
        // different fields of `me` add to one entry instead of replacing each other's.
        Member: { merge: true },
        Profile: { merge: true },
        Appearance: { merge: true },
      },
    }),
  });
}
