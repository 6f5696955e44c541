import { resolver } from '../kernel/feature-module.js';
import type { FeatureModule } from '../kernel/feature-module.js';
import { DataExportResolver } from './data-export.resolver.js';
import { DataExportService } from './data-export.service.js';

declare module '../kernel/feature-module.js' {
  interface Services {
    dataExports: DataExportService;
  }
}

/** "Download my data", and the operator's export of the same. */
export const exportsModule: FeatureModule = {
  name: 'exports',
  build: ({ dataSource }, { identity }) => ({
    dataExports: new DataExportService(dataSource, identity.client, identity.sessions?.list),
  }),
  resolvers: [
    resolver(DataExportResolver, ({ dataExports, identity }) => new DataExportResolver(dataExports, identity.client)),
  ],
};
