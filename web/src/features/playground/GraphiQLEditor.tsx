import 'graphiql/setup-workers/vite';
// GraphiQL's own styles without its bundled copy of Monaco's (the editor brings its own) and without
// its fonts, 460 KB inlined in the stylesheet: the playground uses the system's (playground.css).
import '@graphiql/react/style.css';
import 'graphiql/graphiql.css';
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import { createClient } from 'graphql-ws';
import { useState } from 'react';
import { liveUrl } from '../../lib/live-url';
import type { ExampleOperation } from './examples';

/**
 * Queries and mutations over HTTP; subscriptions over one WebSocket on the same `/graphql`
 * (graphql-ws), opened by the first subscription run, as a visitor (the public fields only).
 */
const fetcher = createGraphiQLFetcher({ url: '/graphql', wsClient: createClient({ url: liveUrl() }) });

/**
 * GraphiQL on the public API, bundled with the app so that it needs no CDN; loaded only when a
 * visitor asks for it. It opens on the operation the visitor had (`current`), beside the examples.
 */
export function GraphiQLEditor({ current, tabs }: { current: ExampleOperation; tabs: readonly ExampleOperation[] }) {
  // GraphiQL reads its first tabs once and keeps the visitor's own tabs after the first visit; the
  // operation brought from the first view is then found among them, or added as a tab of its own.
  const [defaultTabs] = useState(() => [...tabs]);
  return (
    <GraphiQL
      fetcher={fetcher}
      defaultTabs={defaultTabs}
      initialQuery={current.query}
      initialVariables={current.variables}
      defaultEditorToolsVisibility="variables"
    />
  );
}
