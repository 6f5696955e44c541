import { resolver } from '../kernel/feature-module.js';
import type { FeatureModule } from '../kernel/feature-module.js';
import { moderationEntities } from './moderation.entities.js';
import { PageHoldResolver } from './page-hold.resolver.js';
import { ReportResolver } from './report.resolver.js';
import { ReportService } from './report.service.js';

declare module '../kernel/feature-module.js' {
  interface Services {
    reports: ReportService;
  }
}

/** Reports of pages, the pages held, and the operator's audit log. */
export const moderationModule: FeatureModule = {
  name: 'moderation',
  entities: moderationEntities,
  build: ({ dataSource }, { profiles, identity }) => ({
    reports: new ReportService(dataSource, profiles, identity.redis),
  }),
  resolvers: [
    resolver(ReportResolver, ({ reports }) => new ReportResolver(reports)),
    resolver(PageHoldResolver, () => new PageHoldResolver()),
  ],
};
