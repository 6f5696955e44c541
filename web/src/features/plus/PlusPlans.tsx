/**
 * The plans on offer. Billing is not configured yet, so there is nothing to buy; the billing work
 * replaces this with the `plans` query, `startCheckout` and `openBillingPortal`.
 */
export function PlusPlans() {
  return (
    <div className="plans plans--unavailable" role="status">
      <p className="plans-title">Plans are coming soon</p>
      <p>Billing is not configured on Lampstand yet, so Plus cannot be bought here for now.</p>
    </div>
  );
}
