import { ApolloLink } from '@apollo/client';
import { ServerError } from '@apollo/client/errors';
import type { Observable } from 'rxjs';
import { catchError, from, mergeMap, of, throwError } from 'rxjs';

declare module '@apollo/client' {
  interface DefaultContext {
    /** Send no member token (signing in, refreshing, or a token the caller sets itself). */
    anonymous?: boolean;
    headers?: Record<string, string>;
    /** Set by HttpLink: the HTTP response the result came in. */
    response?: Response;
  }
}

/** Where the link gets the member's token, and how it gets a new one when the server refuses it. */
export interface TokenSource {
  accessToken(): string | null;
  /** Gets a token to use instead of `rejected`; false when the session has ended. */
  renew(rejected: string): Promise<boolean>;
}

/** The context of an operation that must not carry the member's token. */
export const ANONYMOUS = { anonymous: true } as const;

/**
 * Adds `Authorization: Bearer <token>` with the token current at each request. When the server
 * answers 401 (expired, revoked or ended session), renews the session once and retries; if it
 * cannot be renewed, the first answer stands (the token source has signed the member out).
 */
export function createAuthLink(tokens: TokenSource): ApolloLink {
  return new ApolloLink((operation, forward) => {
    if (operation.getContext().anonymous === true) return forward(operation);

    const send = () => {
      const token = tokens.accessToken();
      operation.setContext(({ headers = {} }) => {
        const { authorization: _previous, ...rest } = headers;
        return { headers: token ? { ...rest, authorization: `Bearer ${token}` } : rest };
      });
      return { token, result: forward(operation) };
    };

    const first = send();
    const renewOr = (fallback: Observable<ApolloLink.Result>): Observable<ApolloLink.Result> => {
      const rejected = first.token;
      if (rejected === null) return fallback;
      return from(tokens.renew(rejected)).pipe(mergeMap((renewed) => (renewed ? send().result : fallback)));
    };

    return first.result.pipe(
      mergeMap((result) => (operation.getContext().response?.status === 401 ? renewOr(of(result)) : of(result))),
      // A 401 without a GraphQL body arrives as a ServerError; other failures go to the caller as they are.
      catchError((error: unknown) => {
        const fallback = throwError(() => error);
        return ServerError.is(error) && error.statusCode === 401 ? renewOr(fallback) : fallback;
      }),
    );
  });
}
