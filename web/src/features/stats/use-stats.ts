import { describeError } from '../../lib/errors';
import { useAuth } from '../../session/AuthProvider';
import { useStatsPageQuery } from './stats-page.generated';

/** Days every member sees, and Plus members (server/src/links/page-stats.service.ts). */
export const FREE_DAYS = 7;
export const PLUS_DAYS = 90;

/** The member's page stats: 90 days with Plus, else 7; always read afresh, counts change all day. */
export function useStats() {
  const { stripe } = useAuth();
  const days = stripe ? PLUS_DAYS : FREE_DAYS;
  const query = useStatsPageQuery({ variables: { days }, fetchPolicy: 'network-only' });
  return {
    plus: stripe,
    stats: query.dataState === 'complete' ? query.data.pageStats : null,
    failure: query.error ? describeError(query.error) : null,
    loading: query.loading,
    retry: () => void query.refetch(),
  };
}
