import { ApolloProvider } from '@apollo/client/react';
import { useState } from 'react';
import { createApolloClient } from '../../lib/apollo';
import { PrayerRequestForm } from './PrayerRequestForm';

/** The prayer form on the public page's own document, with the GraphQL client it brings along. */
export function PrayerIsland({ username, prompt }: { username: string; prompt: string }) {
  const [client] = useState(() => createApolloClient());
  return (
    <ApolloProvider client={client}>
      <PrayerRequestForm username={username} prompt={prompt} />
    </ApolloProvider>
  );
}
