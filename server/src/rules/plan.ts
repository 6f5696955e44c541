/**
 * A member's plan, from the role billing stores (`users.stripe_role`, the token's `stripeRole`):
 * what the API, the operator's tools and "Download my data" call it (`@rules/plan`).
 */

/** The role that unlocks the Plus features. */
export const PLUS_ROLE = 'plus';

/** The plans by name, as the API's `Plan` enum spells them. */
export type PlanName = 'free' | 'plus';

/** Whether this stored role is Lampstand Plus. */
export function isPlusRole(role: string | null): boolean {
  return role === PLUS_ROLE;
}

/** The plan a stored role means: `plus` for Plus, `free` for no role (or one that is not Plus). */
export function planName(role: string | null): PlanName {
  return isPlusRole(role) ? 'plus' : 'free';
}
