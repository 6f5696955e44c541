import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { Public } from '../graphql/auth.js';
import type { Context } from '../graphql/context.js';
import { EmailCodeInput } from './account.inputs.js';
import { toAuthPayload } from './account.mappers.js';
import type { AccountService } from './account.service.js';
import { AuthPayload, Notice } from './session.types.js';

/** What the web app shows after a password-reset or sign-in link request, whatever the address (the original's words). */
const INBOX_NOTICE = 'Please check your inbox.';

/** What is emailed to an address: sign-in links and codes, password-reset links, and their use. */
@Resolver()
export class EmailLinkResolver {
  constructor(private readonly accounts: AccountService) {}

  @Public()
  @Mutation(() => Notice, {
    description:
      'Emails a link and a code to set a new password. The answer is the same whether or not the address has an account.',
  })
  async requestPasswordReset(
    @Arg('email', () => String, { description: 'The address of the account.' }) email: string,
    @Ctx() { clientIp }: Context,
  ): Promise<Notice> {
    await this.accounts.requestPasswordReset(email, { clientIp });
    return Object.assign(new Notice(), { message: INBOX_NOTICE });
  }

  @Public()
  @Mutation(() => Notice, {
    description:
      'Emails a sign-in link and a 6-digit code to the account of this address (no account is made). ' +
      'The link signs in on the web; give the code to `signInWithEmailCode`. The answer is the same ' +
      'whether or not the address has an account.',
  })
  async requestSignInLink(
    @Arg('email', () => String, { description: 'The address of the account.' }) email: string,
    @Ctx() { clientIp }: Context,
  ): Promise<Notice> {
    await this.accounts.requestSignInLink(email, { clientIp });
    return Object.assign(new Notice(), { message: INBOX_NOTICE });
  }

  @Public()
  @Mutation(() => AuthPayload, {
    description:
      'Signs in with the 6-digit code of a sign-in email (`requestSignInLink`). `INVALID_TOKEN` when the ' +
      'code is wrong, used or expired; a code stops working after five tries.',
  })
  async signInWithEmailCode(
    @Arg('input', () => EmailCodeInput, { description: 'The address and the emailed code.' }) input: EmailCodeInput,
    @Ctx() { clientIp }: Context,
  ): Promise<AuthPayload> {
    return toAuthPayload(await this.accounts.signInWithEmailCode(input, { clientIp }));
  }

  @Public()
  @Mutation(() => AuthPayload, {
    description:
      "Opens a password-reset link: spends the link's token and answers a session that may call " +
      '`setNewPassword` for 15 minutes. `INVALID_TOKEN` at once when the link is used or expired.',
  })
  async openRecoveryLink(
    @Arg('token', () => String, { description: "The emailed link's `token_hash`." }) token: string,
    @Ctx() { clientIp }: Context,
  ): Promise<AuthPayload> {
    return toAuthPayload(await this.accounts.openRecoveryLink(token, { clientIp }));
  }
}
