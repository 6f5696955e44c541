import 'graphiql/setup-workers/vite';
import 'graphiql/style.css';
import './playground.css';
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { GraphiQL } from 'graphiql';
import { useState } from 'react';
import { Link } from 'react-router';
import { BrandMark } from '../../ui/BrandMark';
import { PageLoading } from '../../ui/PageLoading';
import { usePageMeta } from '../../lib/usePageMeta';
import { CookieSettingsButton } from '../../consent/CookieSettingsButton';
import { useAuth } from '../../session/AuthProvider';
import { exampleOperations } from './examples';

const fetcher = createGraphiQLFetcher({ url: '/graphql' });

/** `/playground`: GraphiQL on the public API, bundled with the app so that it needs no CDN. */
export function PlaygroundPage() {
  usePageMeta({
    title: 'GraphQL playground · Lampstand',
    description: 'Try the Lampstand GraphQL API: the verse of the day, verse lookup and public profiles.',
  });
  const { signedIn, username, memberError } = useAuth();
  // The examples name the member's own page: wait for it rather than fill in the placeholder.
  const ready = !signedIn || username !== null || memberError !== null;
  return (
    <div className="playground">
      <header className="playground-bar">
        <Link to="/" className="brand" aria-label="Lampstand home">
          <BrandMark size={22} />
          <span>Lampstand</span>
        </Link>
        <h1>GraphQL playground</h1>
        <p className="playground-hint">
          Public queries need no key. Run with <kbd>Ctrl</kbd>/<kbd>⌘</kbd>+<kbd>Enter</kbd>.
        </p>
        <CookieSettingsButton className="link-button playground-cookies" />
      </header>
      <main id="main" className="playground-main">
        {ready ? <Playground username={username} /> : <PageLoading />}
      </main>
    </div>
  );
}

function Playground({ username }: { username: string | null }) {
  // GraphiQL reads its first tabs once, and keeps the member's own tabs after the first visit.
  const [tabs] = useState(() => exampleOperations(username));
  return <GraphiQL fetcher={fetcher} defaultTabs={tabs} defaultEditorToolsVisibility="variables" />;
}
