import 'reflect-metadata';
import { validateOrReject } from 'class-validator';
import type { ValidationError, ValidatorOptions } from 'class-validator';
import type { GraphQLSchema } from 'graphql';
import { lexicographicSortSchema, printSchema } from 'graphql';
import type { ContainerType, NonEmptyArray } from 'type-graphql';
import { ArgumentValidationError, buildSchema } from 'type-graphql';
import { classifyRootFields, createAuthChecker } from './auth.js';
import { unusedPubSub } from './subscriptions.js';

/** What type-graphql's own validation passes class-validator, with unknown values refused. */
const VALIDATOR_OPTIONS: ValidatorOptions = { skipMissingProperties: true, forbidUnknownValues: true };

const isObject = (value: unknown): value is object => value !== null && typeof value === 'object';

/**
 * Validates an argument as type-graphql's built-in validation does (objects and arrays of objects,
 * through class-validator's decorators, failing with `ArgumentValidationError`), with class-validator
 * imported once: the built-in one imports it dynamically for every argument it checks, a module
 * resolution on every mutation (a few percent of a sign-in's CPU when profiled).
 */
export async function validateArgument(value: unknown): Promise<void> {
  if (!isObject(value)) return;
  try {
    if (Array.isArray(value)) {
      await Promise.all(value.filter(isObject).map((item) => validateOrReject(item, VALIDATOR_OPTIONS)));
    } else {
      await validateOrReject(value, VALIDATOR_OPTIONS);
    }
  } catch (error) {
    throw new ArgumentValidationError(error as ValidationError[]);
  }
}

/**
 * The executable schema of the resolver classes handed in (the composition root's list);
 * `container` hands type-graphql their instances. Fails when a root field is neither
 * `@Authorized()` nor `@Public()`; `@Authorized()` ones need aal2 unless `@AllowPartialSignIn()`.
 */
export function buildGraphQLSchema(
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- type-graphql's own type for resolver classes
  resolvers: NonEmptyArray<Function>,
  container?: ContainerType,
): Promise<GraphQLSchema> {
  const partial = new Set(
    classifyRootFields(resolvers)
      .filter(({ access }) => access === 'partial')
      .map(({ field }) => field),
  );
  return buildSchema({
    resolvers,
    container,
    authChecker: createAuthChecker(partial),
    validateFn: validateArgument,
    pubSub: unusedPubSub,
    emitSchemaFile: false,
  });
}

/** The schema as the committed `schema.graphql` holds it: sorted, so that diffs stay small. */
export function printSortedSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
