import { Link } from 'react-router';
import { usePageMeta } from '../../lib/use-page-meta';
import { useAuth } from '../../session/AuthProvider';
import { MemberNav } from '../../ui/MemberNav';
import { PageHeading } from '../../ui/PageHeading';
import { PlusPlans } from './PlusPlans';
import { PlusStanding } from './PlusStanding';
import type { CheckoutPhase } from './use-checkout-return';
import { useCheckoutReturn } from './use-checkout-return';
import type { StandingState } from './use-plus-billing';
import { usePlusBilling } from './use-plus-billing';
import './plus.css';

const PERKS = [
  { title: 'Two more themes', text: 'Sunrise, in warm dawn colours, and Garden, in olive and sage.' },
  { title: 'Gold buttons', text: 'A button style that shines.' },
  { title: 'Your own verse', text: 'Keep a verse you love on your page instead of the verse of the day.' },
  { title: 'The Plus badge', text: 'Shown beside your name on your page.' },
];

const NOTICE_CLASS: Record<CheckoutPhase, string> = {
  none: 'checkout-notice checkout-notice--empty',
  // Only a confirmed payment is good news in green; waiting and turning back are calm.
  confirming: 'checkout-notice checkout-notice--calm',
  confirmed: 'checkout-notice',
  delayed: 'checkout-notice checkout-notice--calm',
  cancelled: 'checkout-notice checkout-notice--calm',
};

/** The word after a return from Stripe Checkout, in a live region that is always there to announce it. */
function CheckoutNotice({ phase, onCheckAgain }: { phase: CheckoutPhase; onCheckAgain: () => void }) {
  return (
    <div role="status" className={NOTICE_CLASS[phase]}>
      {phase === 'confirming' && (
        <p className="checkout-notice-title">
          <span className="spinner" aria-hidden="true" />
          Confirming your payment…
        </p>
      )}
      {phase === 'confirmed' && (
        <>
          <p className="checkout-notice-title">Welcome to Plus!</p>
          <p>
            Thank you for supporting Lampstand. Your Plus themes, gold buttons and pinned verse are ready in{' '}
            <Link to="/profile">your page settings</Link>.
          </p>
        </>
      )}
      {phase === 'delayed' && (
        <>
          <p className="checkout-notice-title">Your payment is still being confirmed</p>
          <p>Stripe hasn’t told us about it yet. This can take a minute; your Plus starts as soon as it does.</p>
          <button type="button" className="button button--secondary button--small" onClick={onCheckAgain}>
            Check again
          </button>
        </>
      )}
      {phase === 'cancelled' && (
        <>
          <p className="checkout-notice-title">No charge was made</p>
          <p>You left the checkout before paying. You can choose a plan whenever you like.</p>
        </>
      )}
    </div>
  );
}

/** Plus as far as this screen knows: the billing API's verdict once loaded, else the session's. */
function hasPlus(standing: StandingState, session: boolean): boolean {
  return standing.status === 'ready' ? standing.subscription.plan === 'plus' : session;
}

/** `/plus`: the member's plan, what Plus brings, and the plans on sale with a way to buy one. */
export function PlusPage() {
  usePageMeta({ title: 'Plus · Lampstand' });
  const { stripe } = useAuth();
  const { plans, standing, checkout, portal } = usePlusBilling();
  const { phase, checkAgain } = useCheckoutReturn();
  const plus = hasPlus(standing, stripe);
  // After paying, the plans stay out of reach until the payment is confirmed (no second checkout);
  // a failed checkout keeps them, with its message, where the member clicked.
  const offerPlans =
    checkout.failure !== null || (!plus && phase !== 'confirming' && phase !== 'delayed' && phase !== 'confirmed');
  return (
    <section className="page plus" aria-labelledby="plus-title">
      <MemberNav />
      <PageHeading id="plus-title">Lampstand Plus</PageHeading>
      <p className="lead">Make your page your own, and help keep Lampstand running.</p>
      <CheckoutNotice phase={phase} onCheckAgain={checkAgain} />
      {/* While the payment is being confirmed, the standing would still say "free". */}
      {phase !== 'confirming' && <PlusStanding standing={standing} portal={portal} />}
      <section aria-labelledby="perks-title" className="perks-section">
        <h2 id="perks-title">What Plus brings</h2>
        <ul className="perks">
          {PERKS.map((perk) => (
            <li key={perk.title}>
              <h3>{perk.title}</h3>
              <p>{perk.text}</p>
            </li>
          ))}
        </ul>
      </section>
      {offerPlans && (
        <section aria-labelledby="plans-title" className="plans-section">
          <h2 id="plans-title">Plans</h2>
          <PlusPlans plans={plans} checkout={checkout} />
        </section>
      )}
      <p className="plus-back">
        <Link to="/profile">Back to your page settings</Link>
      </p>
    </section>
  );
}
