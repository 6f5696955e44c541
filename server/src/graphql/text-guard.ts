import type { ApolloServerPlugin } from '@apollo/server';
import type { DocumentNode } from 'graphql';
import { BREAK, GraphQLError, visit } from 'graphql';
import { ErrorCode } from './errors.js';

/**
 * Text no database keeps as it was sent: a lone surrogate (UTF-8 cannot encode it, so it would be
 * stored as U+FFFD and read back changed) or NUL (PostgreSQL's text types refuse it outright).
 */
const UNSTORABLE = /[\p{Cs}\0]/u;

/** The path (`input.title`, `ids.2`) of the first string in `value` that holds unstorable text, or null. */
export function unstorableTextAt(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const found = unstorableTextAt(item, path ? `${path}.${key}` : key);
    if (found !== null) return found;
  }
  return null;
}

/** Apollo keeps parsed documents in its store, so each is walked once, not at every request. */
const literalVerdicts = new WeakMap<DocumentNode, boolean>();

/** Whether a string literal of the document holds unstorable text (the verdict is kept per document). */
export function hasUnstorableLiteral(document: DocumentNode): boolean {
  const known = literalVerdicts.get(document);
  if (known !== undefined) return known;
  let found = false;
  visit(document, {
    StringValue(node) {
      if (!UNSTORABLE.test(node.value)) return undefined;
      found = true;
      return BREAK;
    },
  });
  literalVerdicts.set(document, found);
  return found;
}

/**
 * Refuses, before anything runs, an operation whose variables or string literals hold text that
 * could not be stored as sent: BAD_USER_INPUT (HTTP 400, as for a variable of the wrong type),
 * instead of a database error or text silently changed on its way to the database.
 */
export function textGuardPlugin<TContext extends object>(): ApolloServerPlugin<TContext> {
  return {
    requestDidStart() {
      return Promise.resolve({
        didResolveOperation({ request, document }) {
          const variable = unstorableTextAt(request.variables ?? {});
          if (variable !== null || hasUnstorableLiteral(document)) {
            throw new GraphQLError('Text must not contain NUL characters or unpaired surrogates.', {
              extensions: {
                code: ErrorCode.BAD_USER_INPUT,
                ...(variable !== null ? { field: variable } : {}),
                http: { status: 400 },
              },
            });
          }
          return Promise.resolve();
        },
      });
    },
  };
}
