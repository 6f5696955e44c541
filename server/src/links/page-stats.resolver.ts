import { Arg, Authorized, Int, Query, Resolver } from 'type-graphql';
import { CurrentUser } from '../graphql/auth.js';
import type { AuthUser } from '../graphql/context.js';
import { PageStats } from './link.types.js';
import type { PageStatsService } from './page-stats.service.js';

/** A member's counts of views of their page and clicks on its links. */
@Resolver()
export class PageStatsResolver {
  constructor(private readonly stats: PageStatsService) {}

  @Authorized()
  @Query(() => PageStats, {
    description: 'Views of your page and clicks on its links, by day (UTC): the last 7 days, or up to 90 with Plus.',
  })
  async pageStats(
    @Arg('days', () => Int, { defaultValue: 7, description: 'How many days, up to today: 1–7, or 1–90 with Plus.' })
    days: number,
    @CurrentUser() actor: AuthUser,
  ): Promise<PageStats> {
    return this.stats.forMember(actor, days);
  }
}
