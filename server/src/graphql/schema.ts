import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import { lexicographicSortSchema, printSchema } from 'graphql';
import type { ContainerType } from 'type-graphql';
import { buildSchema } from 'type-graphql';
import { AccountResolver } from '../accounts/account.resolver.js';
import { MemberResolver } from '../accounts/member.resolver.js';
import { BillingResolver } from '../billing/billing.resolver.js';
import { LinkResolver, PublicLinkResolver } from '../links/link.resolver.js';
import { ProfileResolver } from '../profiles/profile.resolver.js';
import { PublicProfileResolver } from '../profiles/public-profile.resolver.js';
import { VerseResolver } from '../verses/verse.resolver.js';
import { authChecker, classifyRootFields } from './auth.js';

/** Every resolver class. Each is built once, with its services, by the app's container. */
export const resolvers = [
  VerseResolver,
  AccountResolver,
  MemberResolver,
  ProfileResolver,
  PublicProfileResolver,
  BillingResolver,
  LinkResolver,
  PublicLinkResolver,
] as const;

/** The executable schema; `container` hands type-graphql the resolver instances. */
export function buildGraphQLSchema(container?: ContainerType): Promise<GraphQLSchema> {
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
