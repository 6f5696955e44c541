import type { ReactNode } from 'react';
import type { PlusStanding_SubscriptionFragment } from './plus-page.generated';
import { FormAlert } from '../../ui/Field';
import type { StandingState, StripeAction } from './use-plus-billing';

function formatDate(iso: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long' }).format(new Date(iso));
}

/** What the member's subscription means for them, in a sentence or two. */
function describe(subscription: PlusStanding_SubscriptionFragment): { detail: string; grace: string | null } {
  const { plan, status, currentPeriodEnd, cancelAtPeriodEnd, graceEndsAt, granted } = subscription;
  const until = currentPeriodEnd ? formatDate(currentPeriodEnd) : null;
  if (plan === 'plus' && status === 'past_due') {
    return {
      detail: 'Thank you for supporting Lampstand!',
      grace: `Your last payment didn’t go through. Stripe will try again, and Plus stays with you${
        graceEndsAt ? ` until ${formatDate(graceEndsAt)}` : ''
      }. To keep it, check your card under “Manage billing”.`,
    };
  }
  if (plan === 'plus' && (status === 'active' || status === 'trialing')) {
    if (cancelAtPeriodEnd) {
      return {
        detail: until
          ? `Your Plus ends on ${until} and will not renew. You can keep it under “Manage billing”.`
          : 'Your Plus will not renew. You can keep it under “Manage billing”.',
        grace: null,
      };
    }
    const renewal = status === 'trialing' ? 'Your free trial runs until' : 'Plus renews on';
    return { detail: until ? `${renewal} ${until}.` : 'Thank you for supporting Lampstand!', grace: null };
  }
  if (plan === 'plus') {
    return {
      detail: granted ? 'Plus was given to you by the Lampstand team. Enjoy!' : 'Thank you for supporting Lampstand!',
      grace: null,
    };
  }
  if (status === 'canceled') {
    return { detail: 'Your Plus has ended. Your Plus choices are kept for when you come back.', grace: null };
  }
  if (status === 'past_due' || status === 'unpaid') {
    return {
      detail: 'Plus ended because a payment didn’t go through. Your Plus choices are kept for when you come back.',
      grace: null,
    };
  }
  return { detail: 'Your page uses the free themes and buttons. Plus adds the extras below.', grace: null };
}

function Summary({ plus, children }: { plus: boolean; children?: ReactNode }) {
  return (
    <>
      <p className="standing-plan">
        {plus ? (
          <>
            <span className="plus-tag">Plus</span> You have Lampstand Plus
          </>
        ) : (
          'You are on the free plan'
        )}
      </p>
      {children}
    </>
  );
}

/** "Your plan": Plus or free, renewal or end, a gentle word after a failed payment, and the portal. */
export function PlusStanding({ standing, portal }: { standing: StandingState; portal: StripeAction<[]> }) {
  let body: ReactNode;
  switch (standing.status) {
    case 'loading':
      body = (
        <div className="standing-loading" role="status" aria-label="Loading your plan">
          <span className="visually-hidden">Loading your plan…</span>
        </div>
      );
      break;
    case 'error':
      body = (
        <div className="plans-problem" role="alert">
          <p>We couldn’t load your plan. Please check your connection and try again.</p>
          <button type="button" onClick={standing.retry}>
            Try again
          </button>
        </div>
      );
      break;
    case 'billing-off':
      body = (
        <Summary plus={standing.plus}>
          <p className="standing-detail">
            {standing.plus ? 'Thank you for supporting Lampstand!' : 'Your page uses the free themes and buttons.'}
          </p>
        </Summary>
      );
      break;
    case 'ready': {
      const { subscription } = standing;
      const { detail, grace } = describe(subscription);
      body = (
        <Summary plus={subscription.plan === 'plus'}>
          <p className="standing-detail">{detail}</p>
          {grace && <p className="grace-notice">{grace}</p>}
          {subscription.canManageBilling && (
            <>
              <p className="standing-actions">
                <button
                  type="button"
                  className="button button--secondary"
                  aria-disabled={portal.pending !== null || undefined}
                  onClick={() => {
                    portal.run();
                  }}
                >
                  {portal.pending ? 'Opening billing…' : 'Manage billing'}
                </button>
              </p>
              <p className="standing-hint">Change your card, see invoices or cancel, on Stripe.</p>
            </>
          )}
          <FormAlert>{portal.failure?.message}</FormAlert>
        </Summary>
      );
      break;
    }
  }
  return (
    <section className="standing" aria-labelledby="standing-title">
      <h2 id="standing-title">Your plan</h2>
      {body}
    </section>
  );
}
