import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import type { ContainerType, NonEmptyArray } from 'type-graphql';
import { classifyRootFields } from '../graphql/auth.js';
import { buildGraphQLSchema } from '../graphql/schema.js';
import type { Kernel, Services } from '../kernel/feature-module.js';
import { modules } from './modules.js';

const recipes = modules.flatMap((module) => module.resolvers ?? []);

/** Every resolver class, from the features' modules. */
export const resolvers = recipes.map((recipe) => recipe.type);

/** The app's executable schema; `container` hands type-graphql the resolver instances. */
export function buildAppSchema(container?: ContainerType): Promise<GraphQLSchema> {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- type-graphql's own type for resolver classes
  return buildGraphQLSchema(resolvers as unknown as NonEmptyArray<Function>, container);
}

/** The container of the resolver instances: each built once, from the services, as its module says. */
export function resolverContainer(
  services: Services,
  kernel: Kernel,
): ContainerType & { get: (resolverClass: unknown) => object | undefined } {
  const instances = new Map<unknown, object>(recipes.map((recipe) => [recipe.type, recipe.build(services, kernel)]));
  return { get: (resolverClass: unknown) => instances.get(resolverClass) };
}

/**
 * The Query or Mutation fields anyone may call (`@Public()`), by name: what the lean public
 * executor may answer.
 */
export function publicRootFields(type: 'Query' | 'Mutation'): Set<string> {
  return new Set(
    classifyRootFields(resolvers)
      .filter(({ field, access }) => access === 'public' && field.startsWith(`${type}.`))
      .map(({ field }) => field.slice(type.length + 1)),
  );
}
