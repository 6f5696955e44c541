import { describeError } from '../../lib/errors';
import { useAuth } from '../../session/AuthProvider';
import { withActivity } from './live-counts';
import { usePageActivitySubscription } from './page-activity.generated';
import { StatsPageDocument, useStatsPageQuery } from './stats-page.generated';

/** Days every member sees, and Plus members (server/src/links/page-stats.service.ts). */
export const FREE_DAYS = 7;
export const PLUS_DAYS = 90;

/**
 * The member's page stats: 90 days with Plus, else 7; read afresh when the screen opens, then kept
 * up to date by `pageActivity`, each view or click added to the counts in the cache as the server
 * counts it (read again only when one cannot be added: a new day, a new link).
 */
export function useStats() {
  const { stripe } = useAuth();
  const days = stripe ? PLUS_DAYS : FREE_DAYS;
  const query = useStatsPageQuery({ variables: { days }, fetchPolicy: 'network-only' });
  const loaded = query.dataState === 'complete';
  usePageActivitySubscription({
    // Counted before the first answer, an activity is in it already.
    skip: !loaded,
    onData: ({ client, data }) => {
      const activity = data.data?.pageActivity;
      if (!activity) return;
      const options = { query: StatsPageDocument, variables: { days } };
      const cached = client.cache.readQuery(options);
      if (!cached) return;
      const next = withActivity(cached.pageStats, activity);
      if (next) client.cache.writeQuery({ ...options, data: { ...cached, pageStats: next } });
      else void query.refetch();
    },
  });
  return {
    plus: stripe,
    stats: loaded ? query.data.pageStats : null,
    failure: query.error ? describeError(query.error) : null,
    loading: query.loading,
    retry: () => void query.refetch(),
  };
}
