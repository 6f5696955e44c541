import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import type { ValidationError } from 'class-validator';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import { isDatabaseUnavailable } from '../db/errors.js';
import type { Context } from './context.js';
import { ErrorCode, isExpectedError } from './errors.js';
import { MAX_TOKENS, requestLimits } from './limits.js';
import { rateLimitPlugin } from './rate-limit-plugin.js';
import { textGuardPlugin } from './text-guard.js';

/** Apollo's own codes for requests that never reached a resolver; safe to show as they are. */
const REQUEST_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
]);

interface FieldProblem {
  field: string;
  message: string;
}

/** Flattens class-validator's nested errors into `input.name: message` pairs, one per rule broken. */
function fieldProblems(errors: readonly ValidationError[], parent: string): FieldProblem[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...fieldProblems(error.children ?? [], field)];
  });
}

/** Rewrites type-graphql's argument validation errors into BAD_USER_INPUT naming each field. */
function validationDetails(formatted: GraphQLFormattedError): GraphQLFormattedError {
  const errors = formatted.extensions?.validationErrors;
  if (!Array.isArray(errors)) return formatted;
  const problems = fieldProblems(errors as ValidationError[], 'input');
  const { validationErrors: _validationErrors, ...extensions } = formatted.extensions ?? {};
  const first = problems[0];
  return {
    ...formatted,
    message: first ? `${first.field}: ${first.message}` : formatted.message,
    extensions: { ...extensions, code: ErrorCode.BAD_USER_INPUT, field: first?.field, fields: problems },
  };
}

/**
 * Keeps expected errors as they are and masks everything else: the client sees a generic coded
 * error (SERVICE_UNAVAILABLE when the database cannot be reached, worth retrying), the log keeps
 * the stack.
 */
export function formatError(log: FastifyBaseLogger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const code = formatted.extensions?.code;
    if (isExpectedError(error) || (typeof code === 'string' && REQUEST_ERROR_CODES.has(code))) {
      const { stacktrace: _stacktrace, ...extensions } = formatted.extensions ?? {};
      return validationDetails({ ...formatted, extensions });
    }
    const original = error instanceof Error && 'originalError' in error ? error.originalError : error;
    if (isDatabaseUnavailable(original)) {
      log.error({ err: original, path: formatted.path }, 'database unavailable');
      return {
        message: 'The service is briefly unavailable. Please try again in a moment.',
        ...(formatted.path ? { path: formatted.path } : {}),
        extensions: { code: ErrorCode.SERVICE_UNAVAILABLE },
      };
    }
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
  options: { introspection: boolean; production: boolean; plugins?: ApolloServerPlugin<Context>[] },
): ApolloServer<Context> {
  const limits = requestLimits({ production: options.production });
  return new ApolloServer<Context>({
    schema,
    validationRules: limits.validationRules,
    parseOptions: { maxTokens: MAX_TOKENS },
    allowBatchedHttpRequests: false,
    introspection: options.introspection,
    includeStacktraceInErrorResponses: false,
    hideSchemaDetailsFromClientErrors: true,
    csrfPrevention: true,
    stopOnTerminationSignals: false,
    formatError: formatError(app.log),
    logger: app.log,
    plugins: [
      ...(limits.plugins as ApolloServerPlugin<Context>[]),
      ApolloServerPluginLandingPageDisabled(),
      ApolloServerPluginCacheControlDisabled(),
      // Federation's traces are for subgraphs, which this is not; the default loads protobuf at start.
      ApolloServerPluginInlineTraceDisabled(),
      textGuardPlugin<Context>(),
      rateLimitPlugin<Context>(),
      ...(options.plugins ?? []),
    ],
  });
}
