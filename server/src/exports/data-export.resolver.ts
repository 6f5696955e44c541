import { Authorized, Query, Resolver } from 'type-graphql';
import { CurrentUser } from '../graphql/auth.js';
import type { AuthUser } from '../graphql/context.js';
import { requireSecondFactor } from '../identity/assurance.js';
import type { IdentityClient } from '../identity/identity.client.js';
import { requireLiveMember } from '../members/live-member.js';
import type { DataExportService } from './data-export.service.js';

@Resolver()
export class DataExportResolver {
  constructor(
    private readonly exports: DataExportService,
    private readonly identity: IdentityClient,
  ) {}

  @Authorized()
  @Query(() => String, {
    description:
      'Everything Lampstand holds about you (account, profile, links, page stats, billing, sessions, ' +
      "operators' actions), as one JSON document, for you to download. With two-factor sign-in on, " +
      'only a session that has passed the code may (`MFA_REQUIRED`).',
  })
  async myData(@CurrentUser() actor: AuthUser): Promise<string> {
    // Everything about the member, sessions and addresses included: as sensitive as an account change.
    await requireSecondFactor(this.identity, actor);
    return JSON.stringify(await this.exports.buildFor(actor.id, requireLiveMember), null, 2);
  }
}
