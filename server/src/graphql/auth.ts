import type { AuthChecker } from 'type-graphql';
import { createParameterDecorator, getMetadataStorage } from 'type-graphql';
import type { AuthUser, Context } from './context.js';
import type { GraphQLError } from 'graphql';
import { appError, ErrorCode, unauthenticated } from './errors.js';

/** The error of a root field called by a session that has not passed the member's second factor. */
export const mfaRequired = (): GraphQLError =>
  appError(
    ErrorCode.MFA_REQUIRED,
    'Enter the code from your authenticator app first: this session has not passed two-factor sign-in.',
  );

/**
 * `@Authorized()` means: a verified, signed-in caller, who, when the member has a verified second
 * factor, has passed it in this session (aal2). A root field marked `@AllowPartialSignIn()` (in
 * `partialFields`, `Query.mfaStatus` form) also answers a session that has not: the one rule of
 * assurance, deny by default.
 */
export function createAuthChecker(partialFields: ReadonlySet<string>): AuthChecker<Context> {
  return ({ context, info }) => {
    const user = context.user;
    if (!user) throw unauthenticated();
    if (!user.secondFactorPending) return true;
    const { schema, parentType, fieldName } = info;
    const root =
      parentType === schema.getQueryType() ||
      parentType === schema.getMutationType() ||
      parentType === schema.getSubscriptionType();
    // A nested field is reached only through a root field that passed.
    if (root && !partialFields.has(`${parentType.name}.${fieldName}`)) throw mfaRequired();
    return true;
  };
}

/** The resolver methods marked `@Public()` and `@AllowPartialSignIn()`, by class. */
const publicMethods = new WeakMap<object, Set<string | symbol>>();
const partialMethods = new WeakMap<object, Set<string | symbol>>();

function marker(registry: WeakMap<object, Set<string | symbol>>): MethodDecorator {
  return (prototype, methodName) => {
    const target = prototype.constructor;
    const methods = registry.get(target) ?? new Set<string | symbol>();
    methods.add(methodName);
    registry.set(target, methods);
  };
}

/**
 * Marks a Query or Mutation as callable by anyone, at its declaration. Every other root field must
 * carry `@Authorized()`: the schema build fails on one that states neither (deny by default).
 */
export function Public(): MethodDecorator {
  return marker(publicMethods);
}

/**
 * Marks an `@Authorized()` root field that a session which has not yet passed the member's second
 * factor (aal1) may call: only what finishing the sign-in needs (verify the code, its status, sign
 * out), and it must show nothing private. Every other authorized field needs aal2 then.
 */
export function AllowPartialSignIn(): MethodDecorator {
  return marker(partialMethods);
}

/**
 * The verified caller of an `@Authorized()` field, as a resolver parameter. The auth checker has
 * already refused anonymous calls; UNAUTHENTICATED here too keeps the type honest.
 */
export function CurrentUser(): ReturnType<typeof createParameterDecorator> {
  return createParameterDecorator<Context>(({ context }): AuthUser => {
    if (!context.user) throw unauthenticated();
    return context.user;
  });
}

export interface RootFieldAccess {
  field: string;
  /**
   * `public`: anyone; `authorized`: a signed-in caller at aal2 when the member has a verified
   * factor; `partial`: a signed-in caller, also before passing the factor (`@AllowPartialSignIn()`).
   */
  access: 'public' | 'authorized' | 'partial';
}

/**
 * Classifies every Query, Mutation and Subscription field of the given resolvers as public (`@Public()`),
 * authorized (`@Authorized()`, aal2 by default) or partial (`@Authorized()` and
 * `@AllowPartialSignIn()`), and throws when one states neither or both of the first two, or is
 * partial without being authorized: checked when the schema is built.
 */
export function classifyRootFields(resolverClasses: readonly object[]): RootFieldAccess[] {
  const storage = getMetadataStorage();
  const ours = new Set<unknown>(resolverClasses);
  const authorized = (target: unknown, methodName: string): boolean =>
    storage.authorizedFields.some((entry) => entry.target === target && entry.fieldName === methodName) ||
    storage.authorizedResolver.some((entry) => entry.target === target);
  const isPublic = (target: object, methodName: string): boolean => publicMethods.get(target)?.has(methodName) ?? false;
  const isPartial = (target: object, methodName: string): boolean =>
    partialMethods.get(target)?.has(methodName) ?? false;
  const fields = [
    ...storage.queries.map((query) => ({ ...query, root: 'Query' })),
    ...storage.mutations.map((mutation) => ({ ...mutation, root: 'Mutation' })),
    ...storage.subscriptions.map((subscription) => ({ ...subscription, root: 'Subscription' })),
  ].filter((entry) => ours.has(entry.target));

  const unguarded: string[] = [];
  const both: string[] = [];
  const stray: string[] = [];
  const result = fields.map(({ root, schemaName, target, methodName }): RootFieldAccess => {
    const field = `${root}.${schemaName}`;
    const open = isPublic(target, methodName);
    const partial = isPartial(target, methodName);
    if (authorized(target, methodName)) {
      if (open) both.push(field);
      return { field, access: partial ? 'partial' : 'authorized' };
    }
    if (!open) unguarded.push(field);
    if (partial) stray.push(field);
    return { field, access: 'public' };
  });
  if (unguarded.length > 0) {
    throw new Error(`Root fields with neither @Authorized() nor @Public(): ${unguarded.join(', ')}`);
  }
  if (both.length > 0) throw new Error(`Root fields both @Authorized() and @Public(): ${both.join(', ')}`);
  if (stray.length > 0) {
    throw new Error(`Root fields @AllowPartialSignIn() without @Authorized(): ${stray.join(', ')}`);
  }
  // By code unit, not `localeCompare`: the names are ASCII identifiers, and a start's first
  // `localeCompare` loads ICU's collation data (~1% of its CPU, quality.md P9).
  return result.sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
}
