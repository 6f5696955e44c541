import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { DataSource } from 'typeorm';
import { In, LessThan } from 'typeorm';
import type { AuthUser } from '../graphql/context.js';
import { appError, ErrorCode } from '../graphql/errors.js';
import type { IdentityClient } from '../identity/identity.client.js';
import type { Mailer } from '../mail/mail.transport.js';
import { requireLiveMember } from '../members/live-member.js';
import { isLiveMember } from '../rules/page-access.js';
import { UserRecord } from '../members/user.entity.js';
import { ProfileRecord } from '../profiles/profile.entity.js';
import { clockIn } from '../rules/dates.js';
import { parseIsoDate, todayIn } from '../verses/day.js';
import { DEFAULT_TRANSLATION } from '../verses/translation.js';
import { VerseMailSendRecord, VerseMailSubscriptionRecord } from './verse-mail.entity.js';
import { verseMailMessage } from './verse-mail.message.js';
import { VerseMailSettings } from './verse-mail.types.js';
import type { VerseMailInput } from './verse-mail.types.js';
import type { VerseService } from '../verses/verse.service.js';

/** How long a claimed mail is this instance's to send before another may try. */
const CLAIM_MS = 10 * 60_000;
const DAY_MS = 86_400_000;
/** How long after a failed (or not yet allowed) send the next try waits. */
const RETRY_MS = 15 * 60_000;
/** How long a day's send record (and the unsubscribe link of its mail) is kept. */
export const SEND_RETENTION_DAYS = 90;

export interface VerseMailDependencies {
  dataSource: DataSource;
  verses: VerseService;
  identity: IdentityClient;
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** The time the job believes it is (tests pass a clock they control). */
  clock?: () => Date;
}

/** What one pass of the morning mail did. */
export interface VerseMailReport {
  sent: number;
  failed: number;
  skipped: number;
}

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

function toSettings(record: VerseMailSubscriptionRecord | null): VerseMailSettings {
  return Object.assign(new VerseMailSettings(), {
    enabled: record !== null,
    hour: record?.hour ?? null,
    timeZone: record?.timeZone ?? null,
  });
}

/**
 * The verse of the day by mail: members opt in with an hour in their time zone; `sendDue` mails
 * each one the day's verse once that hour has come, at most once per member and local day.
 */
export class VerseMailService {
  private readonly clock: () => Date;

  constructor(private readonly deps: VerseMailDependencies) {
    this.clock = deps.clock ?? (() => new Date());
  }

  private get subscriptions() {
    return this.deps.dataSource.getRepository(VerseMailSubscriptionRecord);
  }

  /** The caller's choice. */
  async settings(actor: AuthUser): Promise<VerseMailSettings> {
    return toSettings(await this.subscriptions.findOneBy({ uid: actor.id }));
  }

  /** Starts (or moves) the morning mail; the address must be confirmed, since no mail goes elsewhere. */
  async subscribe(actor: AuthUser, input: VerseMailInput): Promise<VerseMailSettings> {
    const timeZone = input.timeZone.trim();
    todayIn(timeZone, this.clock(), 'input.timeZone');
    const account = await this.deps.identity.getUserById(actor.id);
    if (!account.emailConfirmedAt) {
      throw appError(
        ErrorCode.EMAIL_NOT_CONFIRMED,
        'Please confirm your email address first: open the link we sent you, then turn this on.',
      );
    }
    const record = await this.deps.dataSource.transaction(async (manager) => {
      requireLiveMember(await manager.findOneBy(UserRecord, { uid: actor.id }));
      const existing = await manager.findOneBy(VerseMailSubscriptionRecord, { uid: actor.id });
      const next = Object.assign(existing ?? new VerseMailSubscriptionRecord(), {
        uid: actor.id,
        hour: input.hour,
        timeZone,
        createdAt: existing?.createdAt ?? this.clock(),
      });
      return manager.save(VerseMailSubscriptionRecord, next);
    });
    return toSettings(record);
  }

  /** Stops the morning mail. */
  async unsubscribe(actor: AuthUser): Promise<VerseMailSettings> {
    await this.subscriptions.delete({ uid: actor.id });
    return toSettings(null);
  }

  /** Stops the morning mail of whoever received a mail with this token; false for an unknown token. */
  async unsubscribeByToken(token: string): Promise<boolean> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return false;
    const send = await this.deps.dataSource
      .getRepository(VerseMailSendRecord)
      .findOneBy({ unsubscribeHash: hashToken(token) });
    if (!send) return false;
    await this.subscriptions.delete({ uid: send.uid });
    return true;
  }

  /**
   * Mails the day's verse to every member whose hour has come in their time zone and who has not
   * had today's yet. Each mail is claimed (a row per member and day) before it is sent, so
   * instances and retries never send one twice; a failed send is tried again after `RETRY_MS`.
   */
  async sendDue(): Promise<VerseMailReport> {
    const now = this.clock();
    const report: VerseMailReport = { sent: 0, failed: 0, skipped: 0 };
    // Local dates are within a day of UTC's: one read finds the mails already sent, so a tick
    // writes nothing for them.
    const days = [-1, 0, 1].map((offset) => new Date(now.getTime() + offset * DAY_MS).toISOString().slice(0, 10));
    const done = new Set(
      (
        await this.deps.dataSource
          .getRepository(VerseMailSendRecord)
          .find({ select: { uid: true, day: true }, where: { day: In(days), status: 'sent' } })
      ).map((send) => `${send.uid} ${send.day}`),
    );
    for (const subscription of await this.subscriptions.find()) {
      const local = clockIn(subscription.timeZone, now);
      if (local.hour < subscription.hour || done.has(`${subscription.uid} ${local.date}`)) continue;
      // The day's mail was due at `hour`: a member who opted in after that gets tomorrow's first.
      const dueAt = now.getTime() - ((local.hour - subscription.hour) * 60 + local.minute) * 60_000;
      if (subscription.createdAt.getTime() > dueAt) continue;
      const token = await this.claim(subscription.uid, local.date, now);
      if (token === null) continue;
      try {
        const outcome = await this.send(subscription, local.date, token);
        report[outcome === 'sent' ? 'sent' : 'skipped'] += 1;
        if (outcome === 'sent') await this.markSent(subscription.uid, local.date);
        else await this.release(subscription.uid, local.date, now);
      } catch (error) {
        report.failed += 1;
        this.deps.log.warn(
          { err: error, uid: subscription.uid },
          'verse mail: sending failed; it is tried again later',
        );
        await this.release(subscription.uid, local.date, now);
      }
    }
    await this.pruneSends(now);
    return report;
  }

  /** Forgets sends older than `SEND_RETENTION_DAYS` (their unsubscribe links then answer "unknown"). */
  async pruneSends(now: Date = this.clock()): Promise<number> {
    const before = new Date(now.getTime() - SEND_RETENTION_DAYS * DAY_MS).toISOString().slice(0, 10);
    const result = await this.deps.dataSource.getRepository(VerseMailSendRecord).delete({ day: LessThan(before) });
    return result.affected ?? 0;
  }

  /** Takes the mail of `uid` for `day` if nobody sent it or holds it now; its unsubscribe token, or null. */
  private async claim(uid: string, day: string, now: Date): Promise<string | null> {
    const token = randomBytes(32).toString('base64url');
    const unsubscribeHash = hashToken(token);
    const { dataSource } = this.deps;
    await dataSource
      .createQueryBuilder()
      .insert()
      .into(VerseMailSendRecord)
      .values({ uid, day, status: 'sending', attempts: 0, claimedUntil: new Date(0), unsubscribeHash })
      .orIgnore()
      .execute();
    const claimed = await dataSource
      .createQueryBuilder()
      .update(VerseMailSendRecord)
      .set({ claimedUntil: new Date(now.getTime() + CLAIM_MS), unsubscribeHash, attempts: () => 'attempts + 1' })
      .where('uid = :uid AND day = :day AND status = :status AND claimed_until <= :now', {
        uid,
        day,
        status: 'sending',
        now: now.getTime(),
      })
      .execute();
    return claimed.affected === 1 ? token : null;
  }

  private async markSent(uid: string, day: string): Promise<void> {
    await this.deps.dataSource.getRepository(VerseMailSendRecord).update({ uid, day }, { status: 'sent' });
  }

  private async release(uid: string, day: string, now: Date): Promise<void> {
    await this.deps.dataSource
      .getRepository(VerseMailSendRecord)
      .update({ uid, day, status: 'sending' }, { claimedUntil: new Date(now.getTime() + RETRY_MS) });
  }

  /** Sends one mail; 'waiting' when the member may not get it now (unconfirmed address, leaving). */
  private async send(
    subscription: VerseMailSubscriptionRecord,
    day: string,
    token: string,
  ): Promise<'sent' | 'waiting'> {
    const { dataSource, identity, verses, mailer, publicUrl } = this.deps;
    const [member, profile] = await Promise.all([
      dataSource.getRepository(UserRecord).findOneBy({ uid: subscription.uid }),
      dataSource.getRepository(ProfileRecord).findOneBy({ uid: subscription.uid }),
    ]);
    if (!isLiveMember(member)) return 'waiting';
    const account = await identity.getUserById(subscription.uid);
    if (!account.emailConfirmedAt || !account.email) return 'waiting';
    const verse = await verses.forDay(parseIsoDate(day), profile?.translation ?? DEFAULT_TRANSLATION);
    await mailer.send(verseMailMessage({ to: account.email, day, verse, token, publicUrl }));
    return 'sent';
  }
}
