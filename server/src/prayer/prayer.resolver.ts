import { Arg, Authorized, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { CurrentUser } from '../graphql/auth.js';
import type { AuthUser } from '../graphql/context.js';
import { unauthenticated } from '../graphql/errors.js';
import { LiveSubscription } from '../graphql/subscriptions.js';
import type { PrayerService } from './prayer.service.js';
import { PrayerReplyInput, PrayerRequest, PrayerSettings, PrayerSettingsInput } from './prayer.types.js';

const idArg = { description: 'The request’s id.' } as const;

/** The member's side of prayer requests: settings and the inbox. */
@Resolver(() => PrayerRequest)
export class PrayerResolver {
  constructor(private readonly prayer: PrayerService) {}

  @Authorized()
  @Query(() => PrayerSettings, { description: 'Your prayer-request button and mail choices.' })
  prayerSettings(@CurrentUser() actor: AuthUser): Promise<PrayerSettings> {
    return this.prayer.settings(actor);
  }

  @Authorized()
  @Mutation(() => PrayerSettings, {
    description:
      'Turns the prayer-request button on or off and saves your choices (a prompt and the daily digest need Plus).',
  })
  updatePrayerSettings(
    @Arg('input', () => PrayerSettingsInput, { description: 'Your choices.' }) input: PrayerSettingsInput,
    @CurrentUser() actor: AuthUser,
  ): Promise<PrayerSettings> {
    return this.prayer.updateSettings(actor, input);
  }

  @Authorized()
  @Query(() => [PrayerRequest], { description: 'The prayer requests visitors sent you, newest first.' })
  prayerRequests(@CurrentUser() actor: AuthUser): Promise<PrayerRequest[]> {
    return this.prayer.inbox(actor);
  }

  @Authorized()
  @LiveSubscription(() => PrayerRequest, {
    description: 'A prayer request a visitor has just sent you, as your inbox shows it.',
    topic: 'prayerRequestReceived',
    key: ({ context }) => {
      if (!context.user) throw unauthenticated();
      return context.user.id;
    },
  })
  prayerRequestReceived(@Root() event: { id: string }, @CurrentUser() actor: AuthUser): Promise<PrayerRequest> {
    return this.prayer.one(actor, event.id);
  }

  @Authorized()
  @Query(() => Int, { description: 'How many prayer requests arrived since you last opened your inbox.' })
  unreadPrayerRequests(@CurrentUser() actor: AuthUser): Promise<number> {
    return this.prayer.unreadCount(actor);
  }

  @Authorized()
  @Mutation(() => Int, { description: 'Marks every request in your inbox as read; how many were unread.' })
  markPrayerRequestsRead(@CurrentUser() actor: AuthUser): Promise<number> {
    return this.prayer.markAllRead(actor);
  }

  @Authorized()
  @Mutation(() => PrayerRequest, { description: 'Marks a request as prayed for (or not, with `prayed: false`).' })
  markPrayerRequestPrayed(
    @Arg('id', () => ID, idArg) id: string,
    @Arg('prayed', () => Boolean, { defaultValue: true, description: 'False to take the mark away.' }) prayed: boolean,
    @CurrentUser() actor: AuthUser,
  ): Promise<PrayerRequest> {
    return this.prayer.markPrayed(actor, id, prayed);
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Deletes a request for good.' })
  deletePrayerRequest(@Arg('id', () => ID, idArg) id: string, @CurrentUser() actor: AuthUser): Promise<boolean> {
    return this.prayer.remove(actor, id);
  }

  @Authorized()
  @Mutation(() => Boolean, {
    description:
      'Reports a request as spam or abuse: it leaves your inbox, can no longer be replied to, and is kept for the operators until your retention period ends.',
  })
  reportPrayerRequest(@Arg('id', () => ID, idArg) id: string, @CurrentUser() actor: AuthUser): Promise<boolean> {
    return this.prayer.report(actor, id);
  }

  @Authorized()
  @Mutation(() => PrayerRequest, {
    description:
      'Mails your reply to the visitor through Lampstand; you never see their address. ' +
      '`RATE_LIMITED` past 20 replies an hour.',
  })
  replyToPrayerRequest(
    @Arg('input', () => PrayerReplyInput, { description: 'The request and your words.' }) input: PrayerReplyInput,
    @CurrentUser() actor: AuthUser,
  ): Promise<PrayerRequest> {
    return this.prayer.reply(actor, input);
  }
}
