import { ApolloProvider } from '@apollo/client/react';
import { useState } from 'react';
import { BrowserRouter } from 'react-router';
import type { Consent } from '../consent/consent';
import { ConsentProvider } from '../consent/ConsentProvider';
import { createApolloClient } from './apollo';
import { AppRoutes } from './routes';

export function App({ consent }: { consent: Consent | null }) {
  const [client] = useState(createApolloClient);
  return (
    <ApolloProvider client={client}>
      <BrowserRouter>
        <ConsentProvider consent={consent}>
          <AppRoutes />
        </ConsentProvider>
      </BrowserRouter>
    </ApolloProvider>
  );
}
