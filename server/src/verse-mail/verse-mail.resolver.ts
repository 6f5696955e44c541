import { Arg, Authorized, Mutation, Query, Resolver } from 'type-graphql';
import { CurrentUser } from '../graphql/auth.js';
import type { AuthUser } from '../graphql/context.js';
import type { VerseMailService } from './verse-mail.service.js';
import { VerseMailInput, VerseMailSettings } from './verse-mail.types.js';

@Resolver(() => VerseMailSettings)
export class VerseMailResolver {
  constructor(private readonly mail: VerseMailService) {}

  @Authorized()
  @Query(() => VerseMailSettings, { description: 'Whether, and when, the verse of the day is mailed to you.' })
  verseMail(@CurrentUser() actor: AuthUser): Promise<VerseMailSettings> {
    return this.mail.settings(actor);
  }

  @Authorized()
  @Mutation(() => VerseMailSettings, {
    description: 'Mails you the verse of the day each morning at the hour you pick (a confirmed address is needed).',
  })
  subscribeVerseMail(
    @Arg('input', () => VerseMailInput, { description: 'The hour and your time zone.' }) input: VerseMailInput,
    @CurrentUser() actor: AuthUser,
  ): Promise<VerseMailSettings> {
    return this.mail.subscribe(actor, input);
  }

  @Authorized()
  @Mutation(() => VerseMailSettings, { description: 'Stops the verse of the day by mail.' })
  unsubscribeVerseMail(@CurrentUser() actor: AuthUser): Promise<VerseMailSettings> {
    return this.mail.unsubscribe(actor);
  }
}
