import 'reflect-metadata';
import { validateOrReject } from 'class-validator';
import type { ValidationError, ValidatorOptions } from 'class-validator';
import type { GraphQLSchema } from 'graphql';
import { assertValidSchema, lexicographicSortSchema, printSchema, specifiedScalarTypes } from 'graphql';
import type { ContainerType, NonEmptyArray } from 'type-graphql';
import { ArgumentValidationError, buildSchema, getMetadataStorage } from 'type-graphql';
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
export async function buildGraphQLSchema(
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- type-graphql's own type for resolver classes
  resolvers: NonEmptyArray<Function>,
  container?: ContainerType,
): Promise<GraphQLSchema> {
  const partial = new Set(
    classifyRootFields(resolvers)
      .filter(({ access }) => access === 'partial')
      .map(({ field }) => field),
  );
  const schema = await buildSchema({
    resolvers,
    container,
    authChecker: createAuthChecker(partial),
    validateFn: validateArgument,
    pubSub: unusedPubSub,
    emitSchemaFile: false,
    // type-graphql's own check runs the whole introspection query against the new schema, ~3.5% of
    // a start's CPU (quality.md P9); the schema's validation below is the part of it that can fail
    // for a schema type-graphql built. (The introspection also prints every default value, as
    // `printSortedSchema` does for the committed schema.graphql, which CI regenerates.)
    skipCheck: true,
    // No `globalMiddlewares`: `callResolversDirectly` below sees only a field's own middleware, so
    // a global one would be skipped by the fields it calls directly. Adding one means teaching it.
  });
  assertValidSchema(schema);
  return schema;
}

/** The schema as the committed `schema.graphql` holds it: sorted, so that diffs stay small. */
export function printSortedSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}

/** Argument types whose values are never objects: type-graphql's conversion and our validation leave them as they are. */
const PLAIN_ARGUMENT_TYPES: readonly unknown[] = [String, Number, Boolean, ...specifiedScalarTypes];

/** A resolver method's parameter as type-graphql keeps it. */
type ParamMetadata = NonNullable<ReturnType<typeof getMetadataStorage>['queries'][number]['params']>[number];

/** How a resolver method's parameter is read from the field's arguments and the context. */
type ParameterReader = (args: Record<string, unknown>, context: Record<string, unknown>) => unknown;

/** The reader of one parameter when type-graphql would pass the value as it is; undefined otherwise. */
function plainReader(param: ParamMetadata): ParameterReader | undefined {
  if (param.kind === 'context') {
    const property = param.propertyName;
    return property === undefined ? (_args, context) => context : (_args, context) => context[property];
  }
  if (param.kind !== 'arg') return undefined;
  const name = param.name;
  const plain =
    param.validateFn === undefined &&
    param.validateSettings === undefined &&
    !param.typeOptions.array &&
    PLAIN_ARGUMENT_TYPES.includes(param.getType());
  return plain ? (args) => args[name] : undefined;
}

/**
 * Lets the Query fields in `fields` call their resolver method directly, without type-graphql's
 * wrapper, where the wrapper would only hand the method its arguments: no middleware, no roles,
 * and parameters that are the context or arguments of plain scalar types (which type-graphql
 * converts and validates to the very same values, through a promise for each, with the call itself
 * a microtask later: about 3% of a public read's CPU when profiled, issue 32). Any other field
 * keeps type-graphql's resolver. `instanceOf` gives the resolver class's instance (the container's).
 */
export function callResolversDirectly(
  schema: GraphQLSchema,
  fields: ReadonlySet<string>,
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- type-graphql's own type for resolver classes
  instanceOf: (resolverClass: Function) => object | undefined,
): void {
  const queryFields = schema.getQueryType()?.getFields() ?? {};
  for (const query of getMetadataStorage().queries) {
    const field = queryFields[query.schemaName];
    if (!fields.has(query.schemaName) || field === undefined) continue;
    if ((query.middlewares?.length ?? 0) > 0 || query.roles !== undefined) continue;
    const readers = [...(query.params ?? [])].sort((a, b) => a.index - b.index).map(plainReader);
    if (readers.some((reader) => reader === undefined)) continue;
    const instance = instanceOf(query.target) as Record<string, unknown> | undefined;
    const method = instance?.[query.methodName];
    if (typeof method !== 'function') continue;
    const read = readers as ParameterReader[];
    field.resolve = (_root, args: Record<string, unknown>, context: Record<string, unknown>): unknown =>
      method.apply(
        instance,
        read.map((reader) => reader(args, context)),
      );
  }
}
