import type { FastifyBaseLogger } from 'fastify';
import type { DataSource } from 'typeorm';
import { In, IsNull } from 'typeorm';
import type { IdentityClient } from '../identity/identity.client.js';
import type { Mailer } from '../mail/mail.transport.js';
import { isPlus } from '../members/plus.js';
import { UserRecord } from '../members/user.entity.js';
import { isLiveMember } from '../rules/page-access.js';
import { DEFAULT_PRAYER_RETENTION_DAYS, PRAYER_RETENTION_DAYS } from '../rules/prayer.js';
import type { PrayerChallenges } from './prayer-challenge.js';
import { prayerNoticeMail } from './prayer-mail.js';
import { PrayerRequestRecord, PrayerSettingsRecord } from './prayer.entities.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Where the member reads requests, in the app. */
export const INBOX_PATH = '/prayer-requests';

export interface PrayerNoticeDependencies {
  dataSource: DataSource;
  identity: IdentityClient;
  mailer: Mailer;
  challenges: PrayerChallenges;
  publicUrl: string;
  log: FastifyBaseLogger;
  clock: () => Date;
}

/**
 * The background work of prayer requests: mail to members about new ones (at most one an hour,
 * or one a day for Plus members who chose the digest), and deleting old ones.
 */
export class PrayerNotices {
  constructor(private readonly deps: PrayerNoticeDependencies) {}

  /**
   * Mails each member with requests not yet told of, when their last notice is an hour (or a day)
   * old; the requests are marked told only after the mail is accepted, so a failed send is tried
   * at the next run. The job runs on one instance at a time (jobs/schedule.ts).
   */
  async sendDue(): Promise<{ sent: number; failed: number }> {
    const { dataSource, clock } = this.deps;
    const now = clock();
    const report = { sent: 0, failed: 0 };
    const waiting = await dataSource.getRepository(PrayerRequestRecord).find({
      select: { id: true, uid: true },
      where: { notified: false, reportedAt: IsNull() },
    });
    const byMember = new Map<string, string[]>();
    for (const request of waiting) byMember.set(request.uid, [...(byMember.get(request.uid) ?? []), request.id]);
    if (byMember.size === 0) return report;
    const uids = [...byMember.keys()];
    const [settings, members] = await Promise.all([
      dataSource.getRepository(PrayerSettingsRecord).findBy({ uid: In(uids) }),
      dataSource.getRepository(UserRecord).findBy({ uid: In(uids) }),
    ]);
    for (const member of members) {
      const ids = byMember.get(member.uid) ?? [];
      const choice = settings.find((row) => row.uid === member.uid) ?? null;
      const daily = (choice?.dailyDigest ?? false) && isPlus(member);
      const last = choice?.notifiedAt?.getTime();
      if (!isLiveMember(member) || (last !== undefined && now.getTime() - last < (daily ? DAY_MS : HOUR_MS))) continue;
      try {
        if (!(await this.notify(member.uid, ids.length, daily))) continue;
        report.sent += 1;
      } catch (error) {
        report.failed += 1;
        this.deps.log.warn(
          { err: error, uid: member.uid },
          'prayer requests: the notice failed; it is tried again later',
        );
        continue;
      }
      await dataSource.getRepository(PrayerRequestRecord).update({ id: In(ids) }, { notified: true });
      await dataSource
        .createQueryBuilder()
        .insert()
        .into(PrayerSettingsRecord)
        .values({ uid: member.uid, enabled: choice?.enabled ?? false, notifiedAt: now })
        .orUpdate(['notified_at'], ['uid'])
        .execute();
    }
    return report;
  }

  /** Sends one notice; false when the member has no confirmed address to send it to. */
  private async notify(uid: string, count: number, daily: boolean): Promise<boolean> {
    const account = await this.deps.identity.getUserById(uid);
    if (!account.emailConfirmedAt || !account.email) return false;
    const inboxUrl = `${this.deps.publicUrl}${INBOX_PATH}`;
    await this.deps.mailer.send(prayerNoticeMail({ to: account.email, count, inboxUrl, daily }));
    return true;
  }

  /**
   * Deletes requests older than their member's choice (90 days without one), and spent
   * challenges whose time is over. How many requests went.
   */
  async prune(): Promise<number> {
    const now = this.deps.clock().getTime();
    let deleted = 0;
    for (const days of PRAYER_RETENTION_DAYS) {
      const chosen = 'uid IN (SELECT uid FROM prayer_settings WHERE retention_days = :days)';
      const unchosen = 'uid NOT IN (SELECT uid FROM prayer_settings WHERE retention_days <> :days)';
      const result = await this.deps.dataSource
        .createQueryBuilder()
        .delete()
        .from(PrayerRequestRecord)
        .where(`created_at < :before AND ${days === DEFAULT_PRAYER_RETENTION_DAYS ? unchosen : chosen}`, {
          before: now - days * DAY_MS,
          days,
        })
        .execute();
      deleted += result.affected ?? 0;
    }
    await this.deps.challenges.prune();
    return deleted;
  }
}
