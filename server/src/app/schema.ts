import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import type { ContainerType } from 'type-graphql';
import { AccountResolver } from '../accounts/account.resolver.js';
import { MemberResolver } from '../accounts/member.resolver.js';
import { MfaResolver } from '../accounts/mfa.resolver.js';
import { BillingResolver } from '../billing/billing.resolver.js';
import { classifyRootFields } from '../graphql/auth.js';
import { buildGraphQLSchema } from '../graphql/schema.js';
import { LinkResolver, PublicLinkResolver } from '../links/link.resolver.js';
import { PhotoResolver, PublicPhotoResolver } from '../photos/photo.resolver.js';
import { ProfileResolver } from '../profiles/profile.resolver.js';
import { PublicProfileResolver } from '../profiles/public-profile.resolver.js';
import { UsernameAvailabilityResolver } from '../profiles/username-availability.resolver.js';
import { SavedVerseResolver } from '../saved-verses/saved-verse.resolver.js';
import { VerseMailResolver } from '../verse-mail/verse-mail.resolver.js';
import { VerseResolver } from '../verses/verse.resolver.js';
import { DataExportResolver } from '../exports/data-export.resolver.js';
import { PageHoldResolver } from '../moderation/page-hold.resolver.js';
import { ReportResolver } from '../moderation/report.resolver.js';

/** Every resolver class. Each is built once, with its services, by the app's container. */
export const resolvers = [
  VerseResolver,
  AccountResolver,
  MemberResolver,
  MfaResolver,
  ProfileResolver,
  PublicProfileResolver,
  UsernameAvailabilityResolver,
  BillingResolver,
  LinkResolver,
  PublicLinkResolver,
  PhotoResolver,
  PublicPhotoResolver,
  SavedVerseResolver,
  VerseMailResolver,
  ReportResolver,
  PageHoldResolver,
  DataExportResolver,
] as const;

/** The app's executable schema; `container` hands type-graphql the resolver instances. */
export function buildAppSchema(container?: ContainerType): Promise<GraphQLSchema> {
  return buildGraphQLSchema([...resolvers], container);
}

/**
 * The Query or Mutation fields anyone may call (`@Public()`), by name: what the lean public
 * executor may answer.
 */
export function publicRootFields(type: 'Query' | 'Mutation'): Set<string> {
  return new Set(
    classifyRootFields([...resolvers])
      .filter(({ field, access }) => access === 'public' && field.startsWith(`${type}.`))
      .map(({ field }) => field.slice(type.length + 1)),
  );
}
