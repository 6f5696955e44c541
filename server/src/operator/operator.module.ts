import type { FeatureModule } from '../kernel/feature-module.js';
import { publishPageChanges } from '../profiles/page-changes.js';
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
  build: ({ dataSource, live }, { identity, records, accountLifecycle, dataExports, reports }) => {
    const { sessions } = identity;
    const pageChanged = publishPageChanges(live);
    return {
      operator: {
        dataSource,
        identity: identity.client,
        records,
        lifecycle: accountLifecycle,
        exports: dataExports,
        reports,
        endSessions: sessions
          ? async (uid: string) => {
              const ended = await sessions.end(uid);
              // A banned member's open connections close, and embeds of their page stop.
              live.publish('sessionsEnded', uid, {});
              pageChanged(uid);
              return ended;
            }
          : undefined,
        pageChanged,
      },
    };
  },
};
