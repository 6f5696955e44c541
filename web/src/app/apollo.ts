import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';

/** The browser's GraphQL client; the API lives on the same origin as the app. */
export function createApolloClient(): ApolloClient {
  return new ApolloClient({
    link: new HttpLink({ uri: '/graphql' }),
    cache: new InMemoryCache({
      typePolicies: {
        // Verse texts never change: keep one cache entry per OSIS id.
        Verse: { keyFields: ['id'] },
        // A public page is its address: one entry per username.
        PublicProfile: { keyFields: ['username'] },
      },
    }),
  });
}
