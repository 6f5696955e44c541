import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import { lexicographicSortSchema, printSchema } from 'graphql';
import type { ContainerType, NonEmptyArray } from 'type-graphql';
import { buildSchema } from 'type-graphql';
import { authChecker, classifyRootFields } from './auth.js';

/**
 * The executable schema of the resolver classes handed in (the composition root's list);
 * `container` hands type-graphql their instances. Fails when a root field is neither
 * `@Authorized()` nor `@Public()`.
 */
export function buildGraphQLSchema(
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- type-graphql's own type for resolver classes
  resolvers: NonEmptyArray<Function>,
  container?: ContainerType,
): Promise<GraphQLSchema> {
  classifyRootFields(resolvers);
  return buildSchema({
    resolvers,
    container,
    authChecker,
    validate: { forbidUnknownValues: true },
    emitSchemaFile: false,
  });
}

/** The schema as the committed `schema.graphql` holds it: sorted, so that diffs stay small. */
export function printSortedSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
