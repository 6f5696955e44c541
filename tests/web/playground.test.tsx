import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exampleOperations } from '../../web/src/features/playground/examples';
import { QuickPlayground } from '../../web/src/features/playground/QuickPlayground';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function stubGraphql(answer: object, status = 200) {
  const fetch = vi.fn((_url: RequestInfo | URL, _init?: RequestInit) =>
    Promise.resolve(new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } })),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function sent(fetch: ReturnType<typeof stubGraphql>) {
  const init = fetch.mock.calls[0]?.[1];
  return JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as {
    query: string;
    variables: unknown;
    operationName: string;
  };
}

describe('the playground as it opens', () => {
  it('runs the first example at once and shows the answer', async () => {
    const fetch = stubGraphql({ data: { verseOfTheDay: { ref: 'Psalm 118:24', translation: 'KJV' } } });
    render(<QuickPlayground examples={exampleOperations(null)} onOpenGraphiQL={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Run query' }));
    expect(await screen.findByText(/"translation": "KJV"/)).toBeTruthy();
    expect(fetch.mock.calls[0]?.[0]).toBe('/graphql');
    expect(sent(fetch)).toMatchObject({ operationName: 'VerseOfTheDay', variables: {} });
  });

  it('switches to another example with its variables', async () => {
    const fetch = stubGraphql({ data: { verse: null } });
    render(<QuickPlayground examples={exampleOperations('lydia')} onOpenGraphiQL={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'PublicProfile' }));
    expect(screen.getByRole('button', { name: 'PublicProfile' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByLabelText<HTMLTextAreaElement>('Variables (JSON)').value).toContain('"username": "lydia"');
    await userEvent.click(screen.getByRole('button', { name: 'Run query' }));
    await screen.findByText(/"verse": null/);
    expect(sent(fetch)).toMatchObject({
      operationName: 'PublicProfile',
      variables: { username: 'lydia', timeZone: 'Europe/London' },
    });
  });

  it('refuses variables that are not a JSON object, and sends nothing', async () => {
    const fetch = stubGraphql({ data: {} });
    render(<QuickPlayground examples={exampleOperations(null)} onOpenGraphiQL={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'VerseLookup' }));
    const variables = screen.getByLabelText('Variables (JSON)');
    await userEvent.clear(variables);
    await userEvent.type(variables, '{{"ref": John 3:16}');
    await userEvent.click(screen.getByRole('button', { name: 'Run query' }));
    expect(screen.getByRole('status').textContent).toBe(
      'The variables are not valid JSON: check the quotes and commas.',
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it('says so when the API answers with an HTTP error', async () => {
    stubGraphql({ errors: [{ message: 'Syntax Error: Expected Name, found <EOF>.' }] }, 400);
    render(<QuickPlayground examples={exampleOperations(null)} onOpenGraphiQL={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Run query' }));
    expect(await screen.findByText('The API answered HTTP 400.')).toBeTruthy();
    expect(screen.getByLabelText('Answer').textContent).toContain('Syntax Error');
  });

  it('hands the operation being edited to GraphiQL when asked for', async () => {
    const open = vi.fn();
    render(<QuickPlayground examples={exampleOperations(null)} onOpenGraphiQL={open} />);
    await userEvent.click(screen.getByRole('button', { name: 'VerseLookup' }));
    await userEvent.click(screen.getByRole('button', { name: 'Open in GraphiQL' }));
    expect(open).toHaveBeenCalledTimes(1);
    const handed = open.mock.calls[0]?.[0] as { query: string; variables: string } | undefined;
    expect(handed?.query).toContain('query VerseLookup');
    expect(handed?.variables).toContain('Psalm 119:105');
  });
});
