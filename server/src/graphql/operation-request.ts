import type { FastifyRequest } from 'fastify';

/** Apollo's CSRF rule: a GET without a content type needs one of these headers, not empty. */
const PREFLIGHT_HEADERS = ['x-apollo-operation-name', 'apollo-require-preflight'] as const;

/** One GraphQL operation as a request asks for it. */
export interface OperationRequest {
  query: string;
  variables: Record<string, unknown> | undefined;
  operationName: string | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/** The operation a plain POST or GET asks for, or null for every shape Apollo should judge. */
export function operationRequestOf(request: FastifyRequest): OperationRequest | null {
  const mediaType = request.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase();
  if (request.method === 'POST') {
    const body: unknown = request.body;
    if (mediaType !== 'application/json' || !isRecord(body)) return null;
    if (Object.keys(body).some((key) => key !== 'query' && key !== 'variables' && key !== 'operationName')) return null;
    const { query, variables, operationName } = body;
    if (typeof query !== 'string' || query === '') return null;
    if (variables !== undefined && variables !== null && !isRecord(variables)) return null;
    if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return null;
    return { query, variables: variables ?? undefined, operationName: operationName ?? undefined };
  }
  if (request.method !== 'GET') return null;
  // Apollo's CSRF rule and its content-type rule for GET, taken only where they let the request through.
  if (mediaType === undefined) {
    if (!PREFLIGHT_HEADERS.some((name) => (request.headers[name]?.length ?? 0) > 0)) return null;
  } else if (mediaType !== 'application/json') {
    return null;
  }
  const search = new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1));
  const params: Record<string, string> = {};
  for (const [key, value] of search) {
    if (key in params || (key !== 'query' && key !== 'variables' && key !== 'operationName')) return null;
    params[key] = value;
  }
  const { query, variables, operationName } = params;
  if (query === undefined || query === '' || !request.url.includes('?')) return null;
  let parsedVariables: unknown;
  if (variables !== undefined) {
    try {
      parsedVariables = JSON.parse(variables);
    } catch {
      return null;
    }
    if (!isRecord(parsedVariables)) return null;
  }
  return { query, variables: parsedVariables as Record<string, unknown> | undefined, operationName };
}
