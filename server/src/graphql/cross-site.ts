import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, OperationTypeNode } from 'graphql';
import { CROSS_SITE_MESSAGE } from '../http/cross-site.js';
import type { HeaderSource } from '../http/cross-site.js';
import { ErrorCode } from './errors.js';

/**
 * Refuses, before anything runs, a mutation that `refuses` (the rule in http/cross-site.ts) says a
 * page on another site sent: CROSS_SITE_REQUEST, HTTP 403. The lean executor leaves such requests
 * to Apollo, so this is where every one of them is refused.
 */
export function crossSitePlugin<TContext extends object>(
  refuses: (headers: HeaderSource) => boolean,
): ApolloServerPlugin<TContext> {
  return {
    requestDidStart() {
      return Promise.resolve({
        didResolveOperation({ request, operation }) {
          if (operation?.operation === OperationTypeNode.MUTATION && request.http && refuses(request.http.headers)) {
            throw new GraphQLError(CROSS_SITE_MESSAGE, {
              extensions: { code: ErrorCode.CROSS_SITE_REQUEST, http: { status: 403 } },
            });
          }
          return Promise.resolve();
        },
      });
    },
  };
}
