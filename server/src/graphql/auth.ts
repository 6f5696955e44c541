import { GraphQLError } from 'graphql';
import type { AuthChecker } from 'type-graphql';
import { getMetadataStorage } from 'type-graphql';
import { isDatabaseUnavailable } from '../http/error-handler.js';
import type { TokenVerifier } from '../identity/token-verifier.js';
import { TokenVerificationError } from '../identity/token-verifier.js';
import type { AuthUser, Context } from './context.js';
import { appError, ErrorCode, unauthenticated } from './errors.js';

/**
 * Root fields anyone may call. Every other Query and Mutation field must carry `@Authorized()`;
 * tests/server/authorization.test.ts fails when a root field is in neither group.
 */
export const PUBLIC_ROOT_FIELDS: ReadonlySet<string> = new Set([
  'Query.verseOfTheDay',
  'Query.verse',
  'Query.profile',
  'Query.me',
  'Query.plans',
  'Mutation.signUp',
  'Mutation.login',
  'Mutation.refreshSession',
  'Mutation.requestPasswordReset',
  'Mutation.resetPassword',
]);

const BEARER = /^bearer\s+(\S+)$/i;

/**
 * The caller an Authorization header names: null without one, UNAUTHENTICATED (HTTP 401) when the
 * token is malformed, expired, forged or its session ended, so that clients refresh or sign in again.
 */
export async function authenticate(header: string | undefined, verifier: TokenVerifier): Promise<AuthUser | null> {
  if (header === undefined || header === '') return null;
  const token = BEARER.exec(header)?.[1];
  try {
    if (!token) throw new TokenVerificationError('invalid', 'The Authorization header must be "Bearer <access token>"');
    return await verifier.verify(token);
  } catch (error) {
    if (isDatabaseUnavailable(error)) {
      // The session could not be looked up: worth retrying, and no reason to sign the caller out.
      throw appError(
        ErrorCode.SERVICE_UNAVAILABLE,
        'The service is briefly unavailable. Please try again in a moment.',
        {
          http: { status: 503 },
        },
      );
    }
    if (!(error instanceof TokenVerificationError)) throw error;
    throw new GraphQLError(error.message, {
      extensions: { code: ErrorCode.UNAUTHENTICATED, reason: error.reason, http: { status: 401 } },
    });
  }
}

/** `@Authorized()` means: a verified, signed-in caller. */
export const authChecker: AuthChecker<Context> = ({ context }) => {
  if (!context.user) throw unauthenticated();
  return true;
};

/** The caller of an `@Authorized()` field (the checker has already refused anonymous calls). */
export function requireUser(user: AuthUser | null): AuthUser {
  if (!user) throw unauthenticated();
  return user;
}

export interface RootFieldAccess {
  field: string;
  access: 'public' | 'authorized';
}

/**
 * Classifies every Query and Mutation field of the given resolvers as public or authorized, and
 * throws when one is neither: deny by default, checked when the schema is built.
 */
export function classifyRootFields(resolverClasses: readonly object[]): RootFieldAccess[] {
  const storage = getMetadataStorage();
  const ours = new Set<unknown>(resolverClasses);
  const authorized = (target: unknown, methodName: string): boolean =>
    storage.authorizedFields.some((entry) => entry.target === target && entry.fieldName === methodName) ||
    storage.authorizedResolver.some((entry) => entry.target === target);
  const fields = [
    ...storage.queries.map((query) => ({ ...query, root: 'Query' })),
    ...storage.mutations.map((mutation) => ({ ...mutation, root: 'Mutation' })),
  ].filter((entry) => ours.has(entry.target));

  const unguarded: string[] = [];
  const result = fields.map(({ root, schemaName, target, methodName }): RootFieldAccess => {
    const field = `${root}.${schemaName}`;
    if (authorized(target, methodName)) return { field, access: 'authorized' };
    if (PUBLIC_ROOT_FIELDS.has(field)) return { field, access: 'public' };
    unguarded.push(field);
    return { field, access: 'public' };
  });
  if (unguarded.length > 0) {
    throw new Error(`Root fields without @Authorized() and not listed as public: ${unguarded.join(', ')}`);
  }
  return result.sort((a, b) => a.field.localeCompare(b.field));
}
