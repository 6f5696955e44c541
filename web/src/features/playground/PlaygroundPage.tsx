import './playground.css';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { BrandMark } from '../../ui/BrandMark';
import { PageLoading } from '../../ui/PageLoading';
import { usePageMeta } from '../../lib/use-page-meta';
import { CookieSettingsButton } from '../../consent/CookieSettingsButton';
import { useAuth } from '../../session/AuthProvider';
import type { ExampleOperation } from './examples';
import { exampleOperations, operationName } from './examples';
import { QuickPlayground } from './QuickPlayground';

/** GraphiQL and its editor (Monaco, most of it), fetched together and only when asked for. */
const GraphiQLEditor = lazy(() =>
  Promise.all([import('./GraphiQLEditor'), import('./monaco-slim')]).then(([module]) => ({
    default: module.GraphiQLEditor,
  })),
);

/**
 * `/playground`: the public API's examples to run at once, in plain form controls; GraphiQL, bundled
 * with the app so that it needs no CDN, loads when a visitor opens it.
 */
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
  const [examples] = useState(() => exampleOperations(username));
  const [graphiql, setGraphiql] = useState<{ current: ExampleOperation; tabs: ExampleOperation[] } | null>(null);
  if (!graphiql) {
    return (
      <QuickPlayground
        examples={examples}
        onOpenGraphiQL={(current) => {
          const name = operationName(current.query);
          const others = examples.filter((example) => operationName(example.query) !== name);
          setGraphiql({ current, tabs: [current, ...others] });
        }}
      />
    );
  }
  return (
    <Suspense fallback={<PageLoading />}>
      <GraphiQLEditor current={graphiql.current} tabs={graphiql.tabs} />
    </Suspense>
  );
}
