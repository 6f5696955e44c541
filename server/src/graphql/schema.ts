import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import { lexicographicSortSchema, printSchema } from 'graphql';
import type { ContainerType } from 'type-graphql';
import { buildSchema } from 'type-graphql';
import { VerseResolver } from '../verses/verse.resolver.js';

/** Every resolver class. Each is built once, with its services, by the app's container. */
export const resolvers = [VerseResolver] as const;

/** The executable schema; `container` hands type-graphql the resolver instances. */
export function buildGraphQLSchema(container?: ContainerType): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers,
    container,
    validate: { forbidUnknownValues: true },
    emitSchemaFile: false,
  });
}

/** The schema as the committed `schema.graphql` holds it: sorted, so that diffs stay small. */
export function printSortedSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
