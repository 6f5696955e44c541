import type { DocumentNode, GraphQLSchema } from 'graphql';
import { compileQuery } from 'graphql-jit';
import type { CompiledQuery } from 'graphql-jit';

/**
 * graphql-jit's compilation of an operation, or false for what it cannot compile (graphql-js runs
 * it then). Its callers run a compiled read again through graphql-js when it gives any error, so
 * errors are always graphql-js's own.
 */
export function compiledQueryOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName?: string,
): CompiledQuery | false {
  try {
    const made = compileQuery(schema, document, operationName, { disablingCapturingStackErrors: true });
    return 'query' in made ? made : false;
  } catch {
    return false;
  }
}
