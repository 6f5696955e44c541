import { ApolloProvider } from '@apollo/client/react';
import { useState } from 'react';
import { createApolloClient } from '../../lib/apollo';
import { ReportPageForm } from './ReportPageForm';

/**
 * The report form on the public page's own document, which has no GraphQL client: the client loads
 * with the form, when a visitor asks to report the page (most never do).
 */
export function ReportIsland({ username }: { username: string }) {
  const [client] = useState(() => createApolloClient());
  return (
    <ApolloProvider client={client}>
      <ReportPageForm username={username} />
    </ApolloProvider>
  );
}
