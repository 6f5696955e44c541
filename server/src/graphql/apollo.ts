import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import { ErrorCode, isExpectedError } from './errors.js';
import type { Context } from './context.js';

/** Apollo's own codes for requests that never reached a resolver; safe to show as they are. */
const REQUEST_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
]);

/**
 * Keeps expected errors as they are and masks everything else: the client sees a generic coded
 * error, the log keeps the stack.
 */
export function formatError(log: FastifyBaseLogger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const code = formatted.extensions?.code;
    if (isExpectedError(error) || (typeof code === 'string' && REQUEST_ERROR_CODES.has(code))) {
      const { stacktrace: _stacktrace, ...extensions } = formatted.extensions ?? {};
      return { ...formatted, extensions };
    }
    const original = error instanceof Error && 'originalError' in error ? error.originalError : error;
    log.error({ err: original, path: formatted.path }, 'unexpected error in a GraphQL operation');
    return {
      message: 'Something went wrong on our side. Please try again.',
      ...(formatted.locations ? { locations: formatted.locations } : {}),
      ...(formatted.path ? { path: formatted.path } : {}),
      extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR },
    };
  };
}

/**
 * The Apollo server. It is stopped from the Fastify app's onClose hook, after Fastify has finished
 * in-flight requests, so Apollo's own drain plugin (which closes Fastify itself) is not used.
 */
export function createApollo(
  app: FastifyInstance,
  schema: GraphQLSchema,
  options: { introspection: boolean },
): ApolloServer<Context> {
  return new ApolloServer<Context>({
    schema,
    introspection: options.introspection,
    includeStacktraceInErrorResponses: false,
    hideSchemaDetailsFromClientErrors: true,
    csrfPrevention: true,
    stopOnTerminationSignals: false,
    formatError: formatError(app.log),
    logger: app.log,
    plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginCacheControlDisabled()],
  });
}
