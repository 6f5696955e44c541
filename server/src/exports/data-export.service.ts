import type { DataSource } from 'typeorm';
import { BillingCustomerRecord, BillingGrantRecord, BillingSubscriptionRecord } from '../billing/billing.entities.js';
import { appError, ErrorCode } from '../graphql/errors.js';
import type { IdentityClient } from '../identity/identity.client.js';
import { IdentityError } from '../identity/identity.client.js';
import { LinkClickDayRecord, LinkRecord, PageViewDayRecord } from '../links/link.entity.js';
import { UserRecord } from '../members/user.entity.js';
import { AuditRecord } from '../moderation/moderation.entities.js';
import { PhotoRecord } from '../photos/photo.entity.js';
import { PrayerRequestRecord, PrayerSettingsRecord } from '../prayer/prayer.entities.js';
import { ProfileRecord } from '../profiles/profile.entity.js';
import { pageHold } from '../rules/page-access.js';
import { planName } from '../rules/plan.js';
import { SavedVerseRecord } from '../saved-verses/saved-verse.entity.js';
import { VerseMailSendRecord, VerseMailSubscriptionRecord } from '../verse-mail/verse-mail.entity.js';

/** One sign-in session as the identity service holds it. */
export interface SessionFacts {
  id: string;
  userAgent: string | null;
  ip: string | null;
  createdAt: Date;
  updatedAt: Date;
  refreshedAt: Date | null;
}

/** The sessions of an account, when the identity service's tables are ours to read (embedded mode). */
export type SessionSource = (uid: string) => Promise<SessionFacts[]>;

/** The version of the export's shape, for whoever reads a file made by an older server. */
const EXPORT_FORMAT = 1;

/**
 * Builds the copy of everything Lampstand holds about one member: the member's own download
 * (`myData`) and the operator's `export` both use it, so they cannot differ.
 */
export class DataExportService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly identity: IdentityClient,
    private readonly sessions: SessionSource | undefined,
  ) {}

  /** The member's data as a plain JSON-ready object; `NOT_FOUND` when there is no such member. */
  build(uid: string): Promise<Record<string, unknown>> {
    return this.buildFor(uid, (user) => {
      if (!user) throw appError(ErrorCode.NOT_FOUND, 'No member has this id.');
      return user;
    });
  }

  /** As `build`, with the caller's own rule for a missing member (a member asking gets UNAUTHENTICATED). */
  async buildFor(uid: string, present: (user: UserRecord | null) => UserRecord): Promise<Record<string, unknown>> {
    const manager = this.dataSource.manager;
    const user = present(await manager.findOneBy(UserRecord, { uid }));
    const [profile, links, views, clicks, customer, subscriptions, grant, audit, account, sessions] = await Promise.all(
      [
        manager.findOneBy(ProfileRecord, { uid }),
        manager.find(LinkRecord, { where: { uid }, order: { position: 'ASC' } }),
        manager.find(PageViewDayRecord, { where: { uid }, order: { day: 'ASC' } }),
        manager.find(LinkClickDayRecord, { where: { uid }, order: { day: 'ASC' } }),
        manager.findOneBy(BillingCustomerRecord, { uid }),
        manager.find(BillingSubscriptionRecord, { where: { uid } }),
        manager.findOneBy(BillingGrantRecord, { uid }),
        manager.find(AuditRecord, { where: { target: uid }, order: { at: 'ASC' } }),
        this.identityAccount(uid),
        this.sessions ? this.sessions(uid) : Promise.resolve(null),
      ],
    );
    const [photo, saved, verseMail, verseMailSends, prayerSettings, prayerRequests] = await Promise.all([
      manager.findOneBy(PhotoRecord, { uid }),
      manager.find(SavedVerseRecord, { where: { uid }, order: { savedAt: 'ASC' } }),
      manager.findOneBy(VerseMailSubscriptionRecord, { uid }),
      manager.find(VerseMailSendRecord, { where: { uid }, order: { day: 'ASC' } }),
      manager.findOneBy(PrayerSettingsRecord, { uid }),
      manager.find(PrayerRequestRecord, { where: { uid }, order: { createdAt: 'ASC' } }),
    ]);
    const hold = pageHold(user);
    return {
      format: EXPORT_FORMAT,
      exportedAt: new Date().toISOString(),
      account: {
        id: user.uid,
        email: user.email,
        firstName: user.first,
        birthday: user.birthday,
        joined: user.joined,
        platform: user.platform,
        platformId: user.platformID,
        plan: planName(user.stripeRole),
        deletingSince: user.deletingAt,
      },
      identity: account,
      moderation: hold,
      profile: profile
        ? {
            username: profile.username,
            name: profile.name,
            bio: profile.bio,
            theme: profile.theme,
            layout: profile.layout,
            button: profile.button,
            isActive: profile.isActive,
            isPublic: profile.isPublic,
            welcomeDone: profile.welcome,
            verse: { id: profile.verseId, ref: profile.verseRef, day: profile.verseDay, pinned: profile.versePinned },
            translation: profile.translation,
            timeZone: profile.timeZone,
            // The photo itself, as the page serves it (a 256 px WebP).
            photo: photo
              ? { dataUrl: `data:image/webp;base64,${photo.webp}`, version: photo.version, updatedAt: photo.updatedAt }
              : null,
            created: profile.joined,
            updatedAt: profile.updatedAt,
          }
        : null,
      links: links.map((link) => ({
        id: link.id,
        title: link.title,
        url: link.url,
        hidden: link.hidden,
        position: link.position,
        visibleFrom: link.visibleFrom,
        visibleUntil: link.visibleUntil,
        highlighted: link.highlighted,
        createdAt: link.createdAt,
      })),
      savedVerses: saved.map((entry) => ({ verseId: entry.verseId, savedAt: entry.savedAt })),
      verseMail: {
        subscription: verseMail
          ? { hour: verseMail.hour, timeZone: verseMail.timeZone, since: verseMail.createdAt }
          : null,
        sent: verseMailSends.filter((send) => send.status === 'sent').map((send) => send.day),
      },
      // The visitors' words are the member's to keep; their reply addresses are not (the member never saw them).
      prayerRequests: {
        settings: prayerSettings
          ? {
              enabled: prayerSettings.enabled,
              prompt: prayerSettings.prompt,
              dailyDigest: prayerSettings.dailyDigest,
              retentionDays: prayerSettings.retentionDays,
            }
          : null,
        requests: prayerRequests.map((request) => ({
          id: request.id,
          body: request.body,
          firstName: request.firstName,
          keepPrivate: request.keepPrivate,
          receivedAt: request.createdAt,
          prayedAt: request.prayedAt,
          repliedAt: request.repliedAt,
          reportedAt: request.reportedAt,
        })),
      },
      pageStats: {
        viewsByDay: views.map((row) => ({ day: row.day, views: row.views })),
        clicksByDay: clicks.map((row) => ({ linkId: row.linkId, day: row.day, clicks: row.clicks })),
      },
      billing: {
        stripeCustomer: customer ? { id: customer.customerId, createdAt: customer.createdAt } : null,
        subscriptions: subscriptions.map((subscription) => ({
          id: subscription.id,
          status: subscription.status,
          role: subscription.role,
          currentPeriodEnd: subscription.currentPeriodEnd,
          cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
          pastDueSince: subscription.pastDueSince,
        })),
        grantedPlusSince: grant?.grantedAt ?? null,
      },
      sessions,
      // Operators' actions about the account, without the operator's name (theirs to keep).
      operatorActions: audit.map((entry) => ({
        action: entry.action,
        outcome: entry.outcome,
        at: entry.at,
        details: JSON.parse(entry.details) as unknown,
      })),
    };
  }

  /** The identity account's own facts; null when it is gone (an account half deleted). */
  private async identityAccount(uid: string): Promise<Record<string, unknown> | null> {
    try {
      const account = await this.identity.getUserById(uid);
      return {
        email: account.email,
        emailConfirmedAt: account.emailConfirmedAt,
        pendingEmail: account.newEmail,
        createdAt: account.createdAt,
        signUpDetails: account.userMetadata,
        twoFactor: account.factors.map((factor) => ({ type: factor.type, status: factor.status })),
      };
    } catch (error) {
      if (error instanceof IdentityError && error.code === 'user_not_found') return null;
      if (error instanceof IdentityError) {
        throw appError(ErrorCode.IDENTITY_UNAVAILABLE, 'The account service did not answer; please try again.', {
          identityCode: error.code,
        });
      }
      throw error;
    }
  }
}
