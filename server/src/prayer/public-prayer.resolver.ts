import DataLoader from 'dataloader';
import type { DataSource } from 'typeorm';
import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { keyLookup } from '../db/key-lookup.js';
import { Public } from '../graphql/auth.js';
import type { Context } from '../graphql/context.js';
import { PublicProfile } from '../profiles/profile.types.js';
import { DEFAULT_PRAYER_PROMPT } from '../rules/prayer.js';
import type { PrayerChallenges } from './prayer-challenge.js';
import { PrayerSettingsRecord } from './prayer.entities.js';
import type { PrayerService } from './prayer.service.js';
import { PrayerButton, PrayerChallenge, SendPrayerRequestInput } from './prayer.types.js';

/** Each page's prayer settings (null: never set, so off), one query for every page of a request. */
export function prayerSettingsLoaderFactory(
  dataSource: DataSource,
): () => DataLoader<string, PrayerSettingsRecord | null> {
  // SQL written once: `findBy` ran the query builder at every fresh page read (~4% of its CPU).
  const byUids = keyLookup(dataSource, PrayerSettingsRecord, 'uid');
  return () =>
    new DataLoader(async (uids: readonly string[]) => {
      const rows = await byUids(uids);
      return uids.map((uid) => rows.find((row) => row.uid === uid) ?? null);
    });
}

declare module '../graphql/context.js' {
  interface Loaders {
    /** Each page's prayer-request settings; null when the member never set them. */
    prayerSettingsByUid: DataLoader<string, PrayerSettingsRecord | null>;
  }
}

/** What visitors reach: the button on a page, the form's challenge, and sending. */
@Resolver(() => PublicProfile)
export class PublicPrayerResolver {
  constructor(
    private readonly prayer: PrayerService,
    private readonly challenges: PrayerChallenges,
  ) {}

  @FieldResolver(() => PrayerButton, {
    nullable: true,
    description: 'The "Send a prayer request" button, when the owner turned it on; null otherwise.',
  })
  async prayerButton(@Root() profile: PublicProfile, @Ctx() { loaders }: Context): Promise<PrayerButton | null> {
    const settings = await loaders.prayerSettingsByUid.load(profile.uid);
    if (!settings?.enabled) return null;
    // The prompt is a Plus choice: it rests while the owner has no Plus.
    const prompt = profile.plus && settings.prompt ? settings.prompt : DEFAULT_PRAYER_PROMPT;
    return Object.assign(new PrayerButton(), { prompt });
  }

  @Public()
  @Query(() => PrayerChallenge, {
    description: 'A fresh proof-of-work challenge for the prayer-request form (valid 30 minutes, accepted once).',
  })
  prayerChallenge(): Promise<PrayerChallenge> {
    return this.challenges.issue().then((issued) => Object.assign(new PrayerChallenge(), issued));
  }

  @Public()
  @Mutation(() => Boolean, {
    description:
      'Sends a prayer request to a page whose button is on (no account needed; a few per hour per address and per page). True once it is sent.',
  })
  async sendPrayerRequest(
    @Arg('input', () => SendPrayerRequestInput, { description: 'The request and the solved challenge.' })
    input: SendPrayerRequestInput,
    @Ctx() { clientIp, loaders }: Context,
  ): Promise<boolean> {
    await this.prayer.send(input, clientIp, loaders);
    return true;
  }
}
