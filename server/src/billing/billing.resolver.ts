import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { requireUser } from '../graphql/auth.js';
import type { Context } from '../graphql/context.js';
import { toPlusPlan, toPlusSubscription } from './billing.mappers.js';
import type { BillingService } from './billing.service.js';
import { BillingRedirect, PlusPlan, PlusSubscription } from './billing.types.js';

const redirect = (url: string): BillingRedirect => Object.assign(new BillingRedirect(), { url });

@Resolver()
export class BillingResolver {
  constructor(private readonly billing: BillingService) {}

  @Query(() => [PlusPlan], {
    description: 'Plus prices on sale, cheapest first. Empty when payments are not set up on this server.',
  })
  async plans(): Promise<PlusPlan[]> {
    return (await this.billing.plans()).map(toPlusPlan);
  }

  @Authorized()
  @Query(() => PlusSubscription, {
    description: 'Your Plus and subscription. `BILLING_NOT_CONFIGURED` when payments are not set up (use `me.plan`).',
  })
  async subscription(@Ctx() { user }: Context): Promise<PlusSubscription> {
    return toPlusSubscription(await this.billing.standing(requireUser(user)));
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
    @Ctx() { user }: Context,
  ): Promise<BillingRedirect> {
    return redirect(await this.billing.startCheckout(requireUser(user), priceId));
  }

  @Authorized()
  @Mutation(() => BillingRedirect, {
    description: "Returns Stripe's billing portal, where you change card, plan or cancel; it comes back to `/plus`.",
  })
  async openBillingPortal(@Ctx() { user }: Context): Promise<BillingRedirect> {
    return redirect(await this.billing.openBillingPortal(requireUser(user)));
  }
}
