import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import type { ContainerType } from 'type-graphql';
import { AccountResolver } from '../accounts/account.resolver.js';
import { MemberResolver } from '../accounts/member.resolver.js';
import { BillingResolver } from '../billing/billing.resolver.js';
import { buildGraphQLSchema } from '../graphql/schema.js';
import { LinkResolver, PublicLinkResolver } from '../links/link.resolver.js';
import { ProfileResolver } from '../profiles/profile.resolver.js';
import { PublicProfileResolver } from '../profiles/public-profile.resolver.js';
import { VerseResolver } from '../verses/verse.resolver.js';

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

/** The app's executable schema; `container` hands type-graphql the resolver instances. */
export function buildAppSchema(container?: ContainerType): Promise<GraphQLSchema> {
  return buildGraphQLSchema([...resolvers], container);
}
