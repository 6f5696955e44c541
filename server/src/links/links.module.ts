import { resolver } from '../kernel/feature-module.js';
import type { FeatureModule } from '../kernel/feature-module.js';
import { publishPageChanges } from '../profiles/page-changes.js';
import { FirstVisits } from './first-visits.js';
import { linkEntities } from './link.entity.js';
import { linkLoaderFactory } from './link.loaders.js';
import { LinkResolver } from './link.resolver.js';
import { registerLinkRoutes } from './link-routes.js';
import { LinkService } from './link.service.js';
import { PageActivityResolver } from './page-activity.js';
import { PageStatsResolver } from './page-stats.resolver.js';
import { PageStatsService } from './page-stats.service.js';
import { PublicLinkResolver } from './public-link.resolver.js';

declare module '../kernel/feature-module.js' {
  interface Services {
    links: LinkService;
    pageStats: PageStatsService;
  }
}

/** Members' links, where they lead visitors, and the counts of views and clicks. */
export const linksModule: FeatureModule = {
  name: 'links',
  entities: linkEntities,
  build: ({ dataSource, log, live }, { identity }) => ({
    links: new LinkService(dataSource, publishPageChanges(live)),
    // Each visitor counts once a day per page and link; instances agree through Redis when there is one.
    pageStats: new PageStatsService(dataSource, new FirstVisits(identity.redis, log), (uid, event) => {
      live.publish('pageActivity', uid, event);
    }),
  }),
  resolvers: [
    resolver(LinkResolver, ({ links }) => new LinkResolver(links)),
    resolver(PublicLinkResolver, () => new PublicLinkResolver()),
    resolver(PageStatsResolver, ({ pageStats }) => new PageStatsResolver(pageStats)),
    resolver(PageActivityResolver, () => new PageActivityResolver()),
  ],
  loaders: (dataSource) => {
    const links = linkLoaderFactory(dataSource);
    return [{ names: ['linksByUid'], make: () => ({ linksByUid: links() }), members: { linksByUid: 'key' } }];
  },
  routes: (server, { links, pageStats }) => {
    registerLinkRoutes(server, { links, stats: pageStats });
  },
};
