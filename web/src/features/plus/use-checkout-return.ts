import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { appConfig } from '../../lib/config';
import { useAuth } from '../../session/AuthProvider';
import { SAME_PAGE } from '../../ui/PageHeading';
import { usePlanChangedSubscription } from './plan-changed.generated';

/**
 * How long the confirmation is awaited before the page says it is taking longer and offers to check
 * again (the webhook usually lands in seconds). The page keeps listening after that.
 */
const CONFIRM_FOR_MS = 20_000;

/**
 * Where a return from Stripe Checkout stands: `confirming` until the session carries Plus,
 * `delayed` when that takes longer than expected, `cancelled` when the member turned back.
 */
export type CheckoutPhase = 'none' | 'confirming' | 'confirmed' | 'delayed' | 'cancelled';

function outcomeOf(params: URLSearchParams): 'success' | 'cancelled' | null {
  const checkout = params.get('checkout');
  return checkout === 'success' || checkout === 'cancelled' ? checkout : null;
}

/**
 * Follows `/plus?checkout=success|cancelled`. Stripe sends the member back before (or after) its
 * webhook reaches us, so after a success the page listens to `planChanged`, which the server sends
 * when the webhook changes the plan, and then refreshes the session so that its token carries Plus
 * (the refresh also brings `me` up to date). It refreshes once as it starts listening too, in case
 * the webhook landed just before. After about twenty seconds without news it says so and offers
 * "Check again" (one refresh), still listening. The query is removed from the address once there
 * is nothing left to wait for, so that a reload or a bookmark does not replay it.
 */
export function useCheckoutReturn(): { phase: CheckoutPhase; checkAgain: () => void } {
  const { client, stripe } = useAuth();
  const [params, setParams] = useSearchParams();
  // Without billing no checkout can have happened: nothing to wait for.
  const [outcome] = useState(() => (appConfig().billing ? outcomeOf(params) : null));
  // Each round of waiting has its own number; "check again" starts a new one.
  const [round, setRound] = useState(0);
  const [gaveUpRound, setGaveUpRound] = useState<number | null>(null);

  const phase: CheckoutPhase =
    outcome === 'cancelled'
      ? 'cancelled'
      : outcome !== 'success'
        ? 'none'
        : stripe
          ? 'confirmed'
          : gaveUpRound === round
            ? 'delayed'
            : 'confirming';

  // Listening starts once the round's own refresh has answered: a refresh reconnects the socket,
  // and an event sent while it reconnects would be missed.
  const [refreshedRound, setRefreshedRound] = useState<number | null>(null);
  const waiting = phase === 'confirming' || phase === 'delayed';
  usePlanChangedSubscription({
    skip: !waiting || refreshedRound !== round,
    onData: () => void client.renew(),
    // No live connection (a proxy that drops WebSockets): say so now rather than after the wait.
    onError: () => {
      setGaveUpRound(round);
    },
  });

  useEffect(() => {
    if (phase !== 'confirming') return;
    void client.renew().finally(() => {
      setRefreshedRound(round);
    });
    const timer = setTimeout(() => {
      setGaveUpRound(round);
    }, CONFIRM_FOR_MS);
    return () => {
      clearTimeout(timer);
    };
  }, [phase, round, client]);

  const settled = phase !== 'none' && phase !== 'confirming';
  const hasQuery = params.has('checkout') || params.has('session_id');
  useEffect(() => {
    if (settled && hasQuery) setParams({}, { replace: true, state: SAME_PAGE });
  }, [settled, hasQuery, setParams]);

  return {
    phase,
    checkAgain: () => {
      setRound((current) => current + 1);
    },
  };
}
