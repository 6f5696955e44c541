import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { appConfig } from '../../lib/config';
import { useAuth } from '../../session/AuthProvider';
import { SAME_PAGE } from '../../ui/PageHeading';

/** How often the session is refreshed while Stripe's confirmation is awaited. */
const CONFIRM_POLL_MS = 2_000;
/** How long it is awaited before the page says it is taking longer (the webhook usually lands in seconds). */
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
 * webhook reaches us, so after a success the session is refreshed every two seconds for about
 * twenty until its token carries Plus (the refresh also brings `me` up to date). The query is
 * removed from the address once there is nothing left to wait for, so that a reload or a bookmark
 * does not replay it.
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

  useEffect(() => {
    if (phase !== 'confirming') return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = Date.now() + CONFIRM_FOR_MS;
    const wait = () => {
      timer = setTimeout(() => {
        void client.renew().then(() => {
          if (cancelled) return;
          if (Date.now() >= deadline) setGaveUpRound(round);
          else wait();
        });
      }, CONFIRM_POLL_MS);
    };
    wait();
    return () => {
      cancelled = true;
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
