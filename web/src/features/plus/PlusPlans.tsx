import type { PlusPlans_PlanFragment } from './plus-page.generated';
import { FormAlert } from '../../ui/Field';
import type { PlansState, StripeAction } from './use-plus-billing';

const INTERVAL_WORDS = { day: 'day', week: 'week', month: 'month', year: 'year' } as const;

/** "$4.99", from the amount in the currency's smallest unit (cents, or yen for JPY). */
function formatAmount(amount: number, currency: string): string {
  const format = new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}

/** "$4.99 a month", "$12.00 every 3 months"; the checkout page shows a price that varies. */
function priceLabel(plan: Pick<PlusPlans_PlanFragment, 'amount' | 'currency' | 'interval' | 'intervalCount'>) {
  const unit = INTERVAL_WORDS[plan.interval];
  const every = plan.intervalCount === 1 ? `a ${unit}` : `every ${plan.intervalCount} ${unit}s`;
  return plan.amount === null
    ? `Price shown at checkout, billed ${every}`
    : `${formatAmount(plan.amount, plan.currency)} ${every}`;
}

/** The plans on sale, each with its Upgrade button; a calm note when nothing is on sale here. */
export function PlusPlans({ plans, checkout }: { plans: PlansState; checkout: StripeAction<[priceId: string]> }) {
  if (plans.status === 'loading') {
    return (
      <div className="plans-loading" role="status" aria-label="Loading the plans">
        <span className="visually-hidden">Loading the plans…</span>
      </div>
    );
  }
  if (plans.status === 'error') {
    return (
      <div className="plans-problem" role="alert">
        <p>We couldn’t load the plans. Please check your connection and try again.</p>
        <button type="button" onClick={plans.retry}>
          Try again
        </button>
      </div>
    );
  }
  if (plans.plans.length === 0) {
    return (
      <div className="plans plans--unavailable">
        <p className="plans-title">Plus is not on sale here yet</p>
        <p>When it is, you’ll be able to choose a plan on this page. Everything else on Lampstand works as usual.</p>
      </div>
    );
  }
  return (
    <>
      <ul className="plan-list">
        {plans.plans.map((plan) => {
          const busy = checkout.pending === plan.priceId;
          const price = priceLabel(plan);
          return (
            <li key={plan.priceId} className="plan">
              <h3 className="plan-name">{plan.name}</h3>
              <p className="plan-price">{price}</p>
              {plan.description && <p className="plan-description">{plan.description}</p>}
              <button
                type="button"
                className="button button--primary plan-upgrade"
                aria-disabled={checkout.pending !== null || undefined}
                onClick={() => {
                  checkout.run(plan.priceId);
                }}
              >
                {busy ? 'Opening checkout…' : 'Upgrade'}
                <span className="visually-hidden">
                  {' '}
                  to {plan.name}, {price}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      <p className="plans-note">You pay on Stripe’s secure page and can cancel at any time.</p>
      <FormAlert>{checkout.failure?.message}</FormAlert>
    </>
  );
}
