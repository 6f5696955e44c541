import type { AuthChecker } from 'type-graphql';
import { createParameterDecorator, getMetadataStorage } from 'type-graphql';
import type { AuthUser, Context } from './context.js';
import { unauthenticated } from './errors.js';

/** `@Authorized()` means: a verified, signed-in caller. */
export const authChecker: AuthChecker<Context> = ({ context }) => {
  if (!context.user) throw unauthenticated();
  return true;
};

/** The resolver methods marked `@Public()`, by class. */
const publicMethods = new WeakMap<object, Set<string | symbol>>();

/**
 * Marks a Query or Mutation as callable by anyone, at its declaration. Every other root field must
 * carry `@Authorized()`: the schema build fails on one that states neither (deny by default).
 */
export function Public(): MethodDecorator {
  return (prototype, methodName) => {
    const target = prototype.constructor;
    const methods = publicMethods.get(target) ?? new Set<string | symbol>();
    methods.add(methodName);
    publicMethods.set(target, methods);
  };
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
  access: 'public' | 'authorized';
}

/**
 * Classifies every Query and Mutation field of the given resolvers as public (`@Public()`) or
 * authorized (`@Authorized()`), and throws when one states neither or both: checked when the
 * schema is built.
 */
export function classifyRootFields(resolverClasses: readonly object[]): RootFieldAccess[] {
  const storage = getMetadataStorage();
  const ours = new Set<unknown>(resolverClasses);
  const authorized = (target: unknown, methodName: string): boolean =>
    storage.authorizedFields.some((entry) => entry.target === target && entry.fieldName === methodName) ||
    storage.authorizedResolver.some((entry) => entry.target === target);
  const isPublic = (target: object, methodName: string): boolean => publicMethods.get(target)?.has(methodName) ?? false;
  const fields = [
    ...storage.queries.map((query) => ({ ...query, root: 'Query' })),
    ...storage.mutations.map((mutation) => ({ ...mutation, root: 'Mutation' })),
  ].filter((entry) => ours.has(entry.target));

  const unguarded: string[] = [];
  const both: string[] = [];
  const result = fields.map(({ root, schemaName, target, methodName }): RootFieldAccess => {
    const field = `${root}.${schemaName}`;
    const open = isPublic(target, methodName);
    if (authorized(target, methodName)) {
      if (open) both.push(field);
      return { field, access: 'authorized' };
    }
    if (!open) unguarded.push(field);
    return { field, access: 'public' };
  });
  if (unguarded.length > 0) {
    throw new Error(`Root fields with neither @Authorized() nor @Public(): ${unguarded.join(', ')}`);
  }
  if (both.length > 0) throw new Error(`Root fields both @Authorized() and @Public(): ${both.join(', ')}`);
  return result.sort((a, b) => a.field.localeCompare(b.field));
}
