import { Authorized, Query, Resolver } from 'type-graphql';
import { CurrentUser } from '../graphql/auth.js';
import type { AuthUser } from '../graphql/context.js';
import { requireLiveMember } from '../members/live-member.js';
import type { DataExportService } from './data-export.service.js';

@Resolver()
export class DataExportResolver {
  constructor(private readonly exports: DataExportService) {}

  @Authorized()
  @Query(() => String, {
    description:
      'Everything Lampstand holds about you (account, profile, links, page stats, billing, sessions, ' +
      "operators' actions), as one JSON document, for you to download.",
  })
  async myData(@CurrentUser() actor: AuthUser): Promise<string> {
    return JSON.stringify(await this.exports.buildFor(actor.id, requireLiveMember), null, 2);
  }
}
