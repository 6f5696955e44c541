import type { FeatureModule } from '../kernel/feature-module.js';
import type { OperatorDeps } from './operator-context.js';

declare module '../kernel/feature-module.js' {
  interface Services {
    /** What `npm run admin` works with. */
    operator: OperatorDeps;
  }
}

/** The operator's use cases (`npm run admin`): no API of their own, only what they work with. */
export const operatorModule: FeatureModule = {
  name: 'operator',
  build: ({ dataSource }, { identity, records, accountLifecycle, dataExports, reports }) => ({
    operator: {
      dataSource,
      identity: identity.client,
      records,
      lifecycle: accountLifecycle,
      exports: dataExports,
      reports,
      endSessions: identity.sessions?.end,
    },
  }),
};
