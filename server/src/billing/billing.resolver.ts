import { Arg, Authorized, ID, Mutation, Query, Resolver } from 'type-graphql';
import { CurrentUser, Public } from '../graphql/auth.js';
import type { AuthUser } from '../graphql/context.js';
import { toPlusPlan, toPlusSubscription } from './billing.mappers.js';
import type { CheckoutService } from './checkout.service.js';
import type { PlusRoleService } from './plus-role.service.js';
import { BillingRedirect, PlusPlan, PlusSubscription } from './billing.types.js';

const redirect = (url: string): BillingRedirect => Object.assign(new BillingRedirect(), { url });

@Resolver()
export class BillingResolver {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly roles: PlusRoleService,
  ) {}

  @Public()
  @Query(() => [PlusPlan], {
    description: 'Plus prices on sale, cheapest first. Empty when payments are not set up on this server.',
  })
  async plans(): Promise<PlusPlan[]> {
    return (await this.checkout.plans()).map(toPlusPlan);
  }

  @Authorized()
  @Query(() => PlusSubscription, {
    description: 'Your Plus and subscription. `BILLING_NOT_CONFIGURED` when payments are not set up (use `me.plan`).',
  })
  async subscription(@CurrentUser() actor: AuthUser): Promise<PlusSubscription> {
    return toPlusSubscription(await this.roles.standing(actor));
  }

  @Authorized()
  @Mutation(() => BillingRedirect, {
    description:
      'Starts buying Plus: returns a Stripe Checkout page. It comes back to `/plus?checkout=success&session_id=…` ' +
      '(then refresh the session: the new token carries `stripeRole: plus` once Stripe has told us) or ' +
      '`/plus?checkout=cancelled`. `ALREADY_SUBSCRIBED` if you pay for Plus already, `BAD_USER_INPUT` for a price not on sale.',
  })
  async startCheckout(
    @Arg('priceId', () => ID, { description: 'A `priceId` from `plans`.' }) priceId: string,
    @CurrentUser() actor: AuthUser,
  ): Promise<BillingRedirect> {
    return redirect(await this.checkout.startCheckout(actor, priceId));
  }

  @Authorized()
  @Mutation(() => BillingRedirect, {
    description: "Returns Stripe's billing portal, where you change card, plan or cancel; it comes back to `/plus`.",
  })
  async openBillingPortal(@CurrentUser() actor: AuthUser): Promise<BillingRedirect> {
    return redirect(await this.checkout.openBillingPortal(actor));
  }
}
