import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { CurrentUser } from '../graphql/auth.js';
import type { AuthUser, Context } from '../graphql/context.js';
import type { AccountChangeService } from './account-change.service.js';
import { EmailChangePayload } from './session.types.js';

/** The account itself: its email address, and its end. */
@Resolver()
export class AccountResolver {
  constructor(private readonly accounts: AccountChangeService) {}

  @Authorized()
  @Mutation(() => EmailChangePayload, {
    description:
      'Starts changing your email address: confirmation links go to the new address (and the current one). ' +
      'The change takes effect once confirmed. Needs `currentPassword` unless this session signed in ' +
      'in the last minutes (`REAUTHENTICATION_NEEDED`).',
  })
  async updateEmail(
    @Arg('email', () => String, { description: 'The new address.' }) email: string,
    @CurrentUser() actor: AuthUser,
    @Ctx() { clientIp }: Context,
    @Arg('currentPassword', () => String, {
      nullable: true,
      description: 'The password you sign in with now (not needed minutes after signing in).',
    })
    currentPassword?: string | null,
  ): Promise<EmailChangePayload> {
    const pendingEmail = await this.accounts.updateEmail(actor, email, { clientIp }, currentPassword ?? undefined);
    return Object.assign(new EmailChangePayload(), {
      pendingEmail,
      message: 'Please check your inbox: follow the links we sent to confirm the change.',
    });
  }

  @Authorized()
  @Mutation(() => Boolean, {
    description:
      'Deletes your account, records and profile for good (your password is required). Plus ends too. ' +
      '`BILLING_NOT_CONFIGURED`, deleting nothing, if you have Stripe billing and payments are not set up on this server.',
  })
  async deleteAccount(
    @Arg('password', () => String, { description: 'Your password, to confirm it is you.' }) password: string,
    @CurrentUser() actor: AuthUser,
    @Ctx() { clientIp }: Context,
  ): Promise<boolean> {
    await this.accounts.deleteAccount(actor, password, { clientIp });
    return true;
  }
}
