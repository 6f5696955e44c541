import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphQLFormattedError } from 'graphql';
import { noteFromExtensions, rateLimitHeaders } from '../http/rate-limit-headers.js';
import { ErrorCode } from './errors.js';

/**
 * The `Retry-After` and `RateLimit-*` headers of an answer whose errors include RATE_LIMITED (the
 * first one's note); none otherwise. The answer stays HTTP 200, as GraphQL answers field errors.
 */
export function rateLimitHeadersOf(errors: readonly GraphQLFormattedError[] | undefined): [string, string][] {
  for (const error of errors ?? []) {
    if (error.extensions?.code !== ErrorCode.RATE_LIMITED) continue;
    const note = noteFromExtensions(error.extensions);
    if (note) return rateLimitHeaders(note);
  }
  return [];
}

/** Adds `rateLimitHeadersOf` to Apollo's answers (the lean executor adds them to its own). */
export function rateLimitPlugin<TContext extends object>(): ApolloServerPlugin<TContext> {
  return {
    requestDidStart() {
      return Promise.resolve({
        willSendResponse({ response }) {
          if (response.body.kind !== 'single') return Promise.resolve();
          for (const [name, value] of rateLimitHeadersOf(response.body.singleResult.errors)) {
            response.http.headers.set(name, value);
          }
          return Promise.resolve();
        },
      });
    },
  };
}
