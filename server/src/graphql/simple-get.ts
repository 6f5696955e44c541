import type { IncomingHttpHeaders } from 'node:http';
import type { DocumentNode } from 'graphql';
import { Kind, OperationTypeNode, getOperationAST, parse } from 'graphql';
import { LRUCache } from 'lru-cache';
import { MAX_TOKENS } from './limits.js';

/** The header Apollo's CSRF rule takes as proof that a GET is not a simple cross-site request. */
export const PREFLIGHT_HEADER = 'apollo-require-preflight';
/** Its value on a GET let through by `markSimpleGet`, so that a log or a test can tell it apart. */
const SIMPLE_GET_MARK = 'public-read';

/** Documents already judged, by their text; a verdict is a boolean, so many fit. */
const VERDICTS_MAX = 1000;
const VERDICTS_MAX_CHARS = 1_000_000;

interface SimpleGetRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/**
 * Lets a plain GET (no custom header, no content type: what `fetch(url)` or a `<link>` sends, with
 * no CORS preflight) of an anonymous query of public fields through Apollo's CSRF rule, by marking
 * it with the header the rule asks for, so that Apollo and the lean executor take it alike. The
 * rule guards against a page on another site making a visitor's browser run an operation with the
 * visitor's credentials; here there are none (tokens travel in `Authorization`, which a simple
 * request cannot carry) and the operation is a read anyone may make. Mutations, members' fields,
 * introspection and requests with a token keep the rule.
 */
export function simpleGetMarker(publicFields: ReadonlySet<string>): (request: SimpleGetRequest) => void {
  const verdicts = new LRUCache<string, boolean>({
    max: VERDICTS_MAX,
    maxSize: VERDICTS_MAX_CHARS,
    sizeCalculation: (_verdict, query) => Math.max(1, query.length),
  });

  const readsPublicFields = (query: string, operationName: string | undefined): boolean => {
    const key = `${operationName ?? ''}\n${query}`;
    const known = verdicts.get(key);
    if (known !== undefined) return known;
    let document: DocumentNode | undefined;
    try {
      document = parse(query, { maxTokens: MAX_TOKENS });
    } catch {
      document = undefined;
    }
    const operation = document ? getOperationAST(document, operationName) : null;
    const verdict =
      operation?.operation === OperationTypeNode.QUERY &&
      operation.selectionSet.selections.every(
        (selection) =>
          selection.kind === Kind.FIELD &&
          (selection.name.value === '__typename' || publicFields.has(selection.name.value)),
      );
    verdicts.set(key, verdict);
    return verdict;
  };

  return (request) => {
    const { headers } = request;
    if (request.method !== 'GET' || headers.authorization !== undefined || headers['content-type'] !== undefined)
      return;
    if (headers[PREFLIGHT_HEADER] || headers['x-apollo-operation-name']) return;
    const search = request.url.indexOf('?');
    if (search === -1) return;
    const params = new URLSearchParams(request.url.slice(search + 1));
    const query = params.get('query');
    if (query === null || query === '') return;
    if (readsPublicFields(query, params.get('operationName') ?? undefined)) headers[PREFLIGHT_HEADER] = SIMPLE_GET_MARK;
  };
}
