import { useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { ExampleOperation } from './examples';
import { operationName } from './examples';

type Answer =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'answered'; status: number; body: string }
  | { state: 'refused'; message: string };

/** Variables as written: nothing is `{}`; anything else must be a JSON object. */
function readVariables(text: string): Record<string, unknown> | string {
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    return 'The variables must be a JSON object, such as { "ref": "John 3:16" }.';
  } catch {
    return 'The variables are not valid JSON: check the quotes and commas.';
  }
}

/** Sends one operation to the API as any client would, and answers its JSON, indented. */
async function runOperation(query: string, variables: Record<string, unknown>): Promise<Answer> {
  try {
    const response = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query, variables, operationName: operationName(query) }),
    });
    const text = await response.text();
    let body = text;
    try {
      body = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Not JSON (a proxy's error page): shown as it came.
    }
    return { state: 'answered', status: response.status, body };
  } catch {
    return { state: 'refused', message: 'The API could not be reached. Check your connection and run it again.' };
  }
}

/**
 * The playground as it first opens: the examples, a query and its variables to edit as text, and
 * the answer below or beside them. Plain form controls, so that it is usable as soon as the page
 * shows, on a phone too; GraphiQL (autocomplete, schema docs) loads only when asked for.
 */
export function QuickPlayground({
  examples,
  onOpenGraphiQL,
}: {
  examples: readonly ExampleOperation[];
  onOpenGraphiQL: (current: ExampleOperation) => void;
}) {
  const [chosen, setChosen] = useState(0);
  const [query, setQuery] = useState(examples[0]?.query ?? '');
  const [variables, setVariables] = useState(examples[0]?.variables ?? '');
  const [answer, setAnswer] = useState<Answer>({ state: 'idle' });

  const choose = (index: number) => {
    const example = examples[index];
    if (!example) return;
    setChosen(index);
    setQuery(example.query);
    setVariables(example.variables);
    setAnswer({ state: 'idle' });
  };
  const run = () => {
    if (answer.state === 'running') return;
    const parsed = readVariables(variables);
    if (typeof parsed === 'string') {
      setAnswer({ state: 'refused', message: parsed });
      return;
    }
    setAnswer({ state: 'running' });
    void runOperation(query, parsed).then(setAnswer);
  };
  const runOnShortcut = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      run();
    }
  };

  return (
    <div className="quick-playground">
      <section className="quick-editors" aria-labelledby="quick-operation-title">
        <h2 id="quick-operation-title" className="visually-hidden">
          Operation
        </h2>
        <div className="quick-examples" role="group" aria-label="Examples">
          {examples.map((example, index) => (
            <button
              key={operationName(example.query) ?? index}
              type="button"
              className="quick-example"
              aria-pressed={index === chosen}
              onClick={() => {
                choose(index);
              }}
            >
              {operationName(example.query)}
            </button>
          ))}
        </div>
        <label htmlFor="quick-query">Query</label>
        <textarea
          id="quick-query"
          className="quick-code quick-query"
          value={query}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          onKeyDown={runOnShortcut}
          onChange={(event) => {
            setQuery(event.target.value);
          }}
        />
        <label htmlFor="quick-variables">Variables (JSON)</label>
        <textarea
          id="quick-variables"
          className="quick-code quick-variables"
          value={variables}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          onKeyDown={runOnShortcut}
          onChange={(event) => {
            setVariables(event.target.value);
          }}
        />
        <p className="quick-actions">
          <button
            type="button"
            className="button button--primary"
            aria-disabled={answer.state === 'running' || undefined}
            onClick={run}
          >
            {answer.state === 'running' ? 'Running…' : 'Run query'}
          </button>
          <button
            type="button"
            className="button button--quiet"
            onClick={() => {
              onOpenGraphiQL({ query, variables });
            }}
          >
            Open in GraphiQL
          </button>
        </p>
        <p className="quick-note">GraphiQL adds autocomplete and the schema’s documentation (a larger download).</p>
      </section>
      <section className="quick-result" aria-labelledby="quick-result-title" aria-busy={answer.state === 'running'}>
        <h2 id="quick-result-title">Result</h2>
        <div role="status" className="quick-status">
          {answer.state === 'answered' && answer.status !== 200 && `The API answered HTTP ${answer.status}.`}
          {answer.state === 'refused' && answer.message}
        </div>
        <pre className="quick-code quick-answer" tabIndex={0} aria-label="Answer">
          {answer.state === 'answered'
            ? answer.body
            : answer.state === 'idle'
              ? 'Run the query to see its answer here.'
              : ''}
        </pre>
      </section>
    </div>
  );
}
