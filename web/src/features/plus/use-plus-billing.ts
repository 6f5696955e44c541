import { useEffect, useRef, useState } from 'react';
import type { ApiFailure } from '../../lib/errors';
import { describeError } from '../../lib/errors';
import { useAuth } from '../../session/AuthProvider';
import type { PlusPlans_PlanFragment, PlusStanding_SubscriptionFragment } from './plus-page.generated';
import {
  useOpenBillingPortalMutation,
  usePlusPagePlansQuery,
  usePlusPageSubscriptionQuery,
  useStartCheckoutMutation,
} from './plus-page.generated';

/** What is on sale; an empty list means Plus is not sold here (yet). */
export type PlansState =
  { status: 'loading' } | { status: 'error'; retry: () => void } | { status: 'ready'; plans: PlusPlans_PlanFragment[] };

/** The member's Plus as the billing API tells it, or the session's Plus alone when billing is not set up. */
export type StandingState =
  | { status: 'loading' }
  | { status: 'error'; retry: () => void }
  | { status: 'billing-off'; plus: boolean }
  | { status: 'ready'; subscription: PlusStanding_SubscriptionFragment };

/** One way to Stripe (checkout or portal): which request is on its way, and why the last one failed. */
export interface StripeAction<Args extends unknown[]> {
  run: (...args: Args) => void;
  /** The price being checked out (checkout), or `portal`, while the request runs or Stripe loads. */
  pending: string | null;
  failure: ApiFailure | null;
}

/** Sends the browser to Stripe's page, in this tab, as Stripe asks; nothing but a web address. */
function leaveFor(url: string): void {
  const protocol = new URL(url, window.location.href).protocol;
  if (protocol !== 'https:' && protocol !== 'http:') throw new Error(`Refusing to open ${protocol} address`);
  window.location.assign(url);
}

function useStripeAction<Args extends unknown[]>(
  key: (...args: Args) => string,
  request: (...args: Args) => Promise<string | undefined>,
  onFailure: (failure: ApiFailure) => void,
): StripeAction<Args> {
  const [pending, setPending] = useState<string | null>(null);
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  useEffect(() => {
    // Back from Stripe, the browser may restore this very page from its cache, still busy.
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) setPending(null);
    };
    window.addEventListener('pageshow', onShow);
    return () => {
      window.removeEventListener('pageshow', onShow);
    };
  }, []);
  return {
    pending,
    failure,
    run: (...args) => {
      if (pending !== null) return;
      setPending(key(...args));
      setFailure(null);
      request(...args)
        .then((url) => {
          if (!url) throw new Error('Stripe answered no address');
          // The page stays busy until the browser has left for Stripe.
          leaveFor(url);
        })
        .catch((error: unknown) => {
          const problem = describeError(error);
          setPending(null);
          setFailure(problem);
          onFailure(problem);
        });
    },
  };
}

/**
 * The Plus screen's data and actions. It owns the cache: the member's standing is read afresh on
 * every visit and again whenever the session's Plus claim changes (after checkout, or a change made
 * in the billing portal reaching the token), and a refusal that says the member already pays
 * brings both the session and the standing up to date.
 */
export function usePlusBilling() {
  const { client, stripe } = useAuth();
  const plansQuery = usePlusPagePlansQuery({ fetchPolicy: 'cache-and-network' });
  const standingQuery = usePlusPageSubscriptionQuery({ fetchPolicy: 'cache-and-network' });
  const [startCheckout] = useStartCheckoutMutation();
  const [openBillingPortal] = useOpenBillingPortalMutation();

  const refetchStanding = standingQuery.refetch;
  const claimSeen = useRef(stripe);
  useEffect(() => {
    if (claimSeen.current === stripe) return;
    claimSeen.current = stripe;
    void refetchStanding().catch(() => undefined);
  }, [stripe, refetchStanding]);

  const plans: PlansState =
    plansQuery.dataState === 'complete'
      ? { status: 'ready', plans: plansQuery.data.plans }
      : plansQuery.error
        ? { status: 'error', retry: () => void plansQuery.refetch().catch(() => undefined) }
        : { status: 'loading' };

  const standingFailure = standingQuery.error ? describeError(standingQuery.error) : null;
  const standing: StandingState =
    standingQuery.dataState === 'complete'
      ? { status: 'ready', subscription: standingQuery.data.subscription }
      : standingFailure?.code === 'BILLING_NOT_CONFIGURED'
        ? { status: 'billing-off', plus: stripe }
        : standingFailure
          ? { status: 'error', retry: () => void refetchStanding().catch(() => undefined) }
          : { status: 'loading' };

  const catchUp = (failure: ApiFailure) => {
    if (failure.code !== 'ALREADY_SUBSCRIBED') return;
    void client.renew();
    void refetchStanding().catch(() => undefined);
  };

  const checkout = useStripeAction(
    (priceId: string) => priceId,
    async (priceId: string) => (await startCheckout({ variables: { priceId } })).data?.startCheckout.url,
    catchUp,
  );
  const portal = useStripeAction(
    () => 'portal',
    async () => (await openBillingPortal()).data?.openBillingPortal.url,
    catchUp,
  );

  return { plans, standing, checkout, portal };
}
