/**
 * Asks the API one public query by GET, without a GraphQL client, so that a page's islands stay
 * small and the answer may be kept like any public read (docs/quality.md H4). Throws when the API
 * cannot answer.
 */
export async function getQuery<Data>(operationName: string, query: string, variables: object): Promise<Data> {
  const search = new URLSearchParams({ operationName, query, variables: JSON.stringify(variables) });
  const response = await fetch(`/graphql?${search.toString()}`, {
    headers: { 'content-type': 'application/json', accept: 'application/json' },
  });
  const body = (await response.json()) as { data?: Data | null; errors?: unknown[] };
  if (!response.ok || body.errors?.length || !body.data) {
    throw new Error(`the ${operationName} query failed (HTTP ${response.status})`);
  }
  return body.data;
}
