import { isUuid } from '../rules/uuid.js';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { IsNull } from 'typeorm';
import { codePoints } from '../db/columns.js';
import type { AuthUser, Loaders } from '../graphql/context.js';
import { appError, badUserInput, ErrorCode } from '../graphql/errors.js';
import type { Live } from '../kernel/live.js';
import type { Mailer } from '../mail/mail.transport.js';
import { requireLiveMember } from '../members/live-member.js';
import { requirePlus } from '../members/plus.js';
import { UserRecord } from '../members/user.entity.js';
import type { ProfileService } from '../profiles/profile.service.js';
import { ProfileRecord } from '../profiles/profile.entity.js';
import { EMAIL_SHAPE, MAX_EMAIL_LENGTH } from '../rules/signup.js';
import {
  DEFAULT_PRAYER_RETENTION_DAYS,
  MAX_PRAYER_FIRST_NAME_LENGTH,
  MAX_PRAYER_PROMPT_LENGTH,
  MAX_PRAYER_REPLY_LENGTH,
  MAX_PRAYER_REQUEST_LENGTH,
} from '../rules/prayer.js';
import type { PrayerChallenges } from './prayer-challenge.js';
import type { PrayerSendLimits } from './prayer-limits.js';
import { prayerReplyMail } from './prayer-mail.js';
import { PrayerRequestRecord, PrayerSettingsRecord } from './prayer.entities.js';
import { PrayerRequest, PrayerSettings } from './prayer.types.js';
import type { PrayerReplyInput, PrayerSettingsInput, SendPrayerRequestInput } from './prayer.types.js';

/** A control character other than tab and line breaks: never part of words a person typed. */
const CONTROL = /[^\P{Cc}\t\n\r]/u;

export interface PrayerDependencies {
  dataSource: DataSource;
  profiles: ProfileService;
  mailer: Mailer;
  live: Live;
  limits: PrayerSendLimits;
  challenges: PrayerChallenges;
  clock: () => Date;
}

/** A request as the inbox shows it: never the reply address, only whether there is one. */
export function toPrayerRequest(record: PrayerRequestRecord): PrayerRequest {
  return Object.assign(new PrayerRequest(), {
    id: record.id,
    body: record.body,
    firstName: record.firstName,
    keepPrivate: record.keepPrivate,
    createdAt: record.createdAt,
    read: record.readAt !== null,
    prayedAt: record.prayedAt,
    repliedAt: record.repliedAt,
    canReply: record.replyTo !== null,
  });
}

export function toPrayerSettings(record: PrayerSettingsRecord | null): PrayerSettings {
  return Object.assign(new PrayerSettings(), {
    enabled: record?.enabled ?? false,
    prompt: record?.prompt ?? null,
    dailyDigest: record?.dailyDigest ?? false,
    retentionDays: record?.retentionDays ?? DEFAULT_PRAYER_RETENTION_DAYS,
  });
}

/** Trimmed text, or null for none; refused when longer than `max` characters or holding control characters. */
function optionalText(value: string | null | undefined, max: number, field: string, what: string): string | null {
  const text = (value ?? '').trim();
  if (codePoints(text) > max) throw badUserInput(`${what} can be at most ${String(max)} characters.`, field);
  if (CONTROL.test(text)) throw badUserInput(`${what} has characters that cannot be kept.`, field);
  return text === '' ? null : text;
}

/** Visitors' prayer requests to members, and the member's inbox of them. */
export class PrayerService {
  constructor(private readonly deps: PrayerDependencies) {}

  private get requests() {
    return this.deps.dataSource.getRepository(PrayerRequestRecord);
  }

  /**
   * Stores a visitor's request to the page `input.username` names, when its button is on, and
   * tells the member's open inbox. Refused, storing nothing: text over its limits
   * (`BAD_USER_INPUT`), a page without the button (`NOT_FOUND`), an address or page over its
   * hourly limit (`RATE_LIMITED`), a proof of work that is missing, forged, expired or spent
   * (`BAD_USER_INPUT` on `input.proof`). A filled honeypot answers as if it were sent and stores
   * nothing: a robot learns nothing to adapt to.
   */
  async send(
    input: SendPrayerRequestInput,
    clientIp: string,
    loaders: Pick<Loaders, 'profileByUsername' | 'userByUid'>,
  ): Promise<void> {
    const body = optionalText(input.body, MAX_PRAYER_REQUEST_LENGTH, 'input.body', 'A prayer request');
    if (body === null) throw badUserInput('Please write what you would like prayer for.', 'input.body');
    const firstName = optionalText(input.firstName, MAX_PRAYER_FIRST_NAME_LENGTH, 'input.firstName', 'The name');
    const replyTo = optionalText(input.replyTo, MAX_EMAIL_LENGTH, 'input.replyTo', 'The address');
    if (replyTo !== null && !EMAIL_SHAPE.test(replyTo)) {
      throw badUserInput('That does not look like an email address.', 'input.replyTo');
    }
    const page = await this.deps.profiles.findPublic(input.username, loaders);
    const settings = page ? await this.settingsOf(page.uid) : null;
    if (!page || !settings?.enabled) {
      throw appError(ErrorCode.NOT_FOUND, 'This page does not take prayer requests.');
    }
    if ((input.website ?? '') !== '') return;
    await this.deps.limits.take(clientIp, page.uid);
    if (!(await this.deps.challenges.spend(input.proof))) {
      throw badUserInput('We could not check that this was sent by a person. Please send it again.', 'input.proof');
    }
    const record = Object.assign(new PrayerRequestRecord(), {
      id: randomUUID(),
      uid: page.uid,
      body,
      firstName,
      replyTo,
      keepPrivate: input.keepPrivate ?? false,
      createdAt: this.deps.clock(),
      readAt: null,
      prayedAt: null,
      repliedAt: null,
      reportedAt: null,
      notified: false,
    });
    // One INSERT outside a transaction (on SQLite a transaction must hold the connection's lock).
    await this.requests.save(record, { transaction: false });
    this.deps.live.publish('prayerRequestReceived', page.uid, { id: record.id });
  }

  async settingsOf(uid: string): Promise<PrayerSettingsRecord | null> {
    return this.deps.dataSource.getRepository(PrayerSettingsRecord).findOneBy({ uid });
  }

  async settings(actor: AuthUser): Promise<PrayerSettings> {
    return toPrayerSettings(await this.settingsOf(actor.id));
  }

  /** Saves the member's choices; a prompt and the daily digest need Plus (`PLUS_REQUIRED`). */
  async updateSettings(actor: AuthUser, input: PrayerSettingsInput): Promise<PrayerSettings> {
    const prompt = optionalText(input.prompt, MAX_PRAYER_PROMPT_LENGTH, 'input.prompt', 'The prompt');
    const record = await this.deps.dataSource.transaction(async (manager) => {
      const member = requireLiveMember(await manager.findOneBy(UserRecord, { uid: actor.id }));
      if (prompt !== null) requirePlus(member, 'Your own prayer-request prompt');
      if (input.dailyDigest) requirePlus(member, 'The daily digest of prayer requests');
      const existing = await manager.findOneBy(PrayerSettingsRecord, { uid: actor.id });
      const next = Object.assign(existing ?? new PrayerSettingsRecord(), {
        uid: actor.id,
        enabled: input.enabled,
        prompt,
        dailyDigest: input.dailyDigest ?? false,
        retentionDays: input.retentionDays ?? DEFAULT_PRAYER_RETENTION_DAYS,
        notifiedAt: existing?.notifiedAt ?? null,
      });
      return manager.save(PrayerSettingsRecord, next);
    });
    return toPrayerSettings(record);
  }

  /** The member's requests, newest first (reported ones left out). */
  async inbox(actor: AuthUser): Promise<PrayerRequest[]> {
    const records = await this.requests.find({
      where: { uid: actor.id, reportedAt: IsNull() },
      order: { createdAt: 'DESC', id: 'ASC' },
    });
    return records.map(toPrayerRequest);
  }

  async unreadCount(actor: AuthUser): Promise<number> {
    return this.requests.countBy({ uid: actor.id, reportedAt: IsNull(), readAt: IsNull() });
  }

  /** Marks every request in the inbox as read; how many were unread. */
  async markAllRead(actor: AuthUser): Promise<number> {
    const result = await this.requests.update({ uid: actor.id, readAt: IsNull() }, { readAt: this.deps.clock() });
    return result.affected ?? 0;
  }

  /** One of the member's own requests, or NOT_FOUND (another member's reads as missing). */
  private async own(actor: AuthUser, id: string): Promise<PrayerRequestRecord> {
    const record = isUuid(id) ? await this.requests.findOneBy({ id, uid: actor.id }) : null;
    if (record?.reportedAt !== null) throw appError(ErrorCode.NOT_FOUND, 'There is no such prayer request.');
    return record;
  }

  /** One of the member's own requests, as their inbox shows it. */
  async one(actor: AuthUser, id: string): Promise<PrayerRequest> {
    return toPrayerRequest(await this.own(actor, id));
  }

  async markPrayed(actor: AuthUser, id: string, prayed: boolean): Promise<PrayerRequest> {
    const record = await this.own(actor, id);
    const now = this.deps.clock();
    record.prayedAt = prayed ? (record.prayedAt ?? now) : null;
    record.readAt ??= now;
    await this.requests.update({ id: record.id }, { prayedAt: record.prayedAt, readAt: record.readAt });
    return toPrayerRequest(record);
  }

  async remove(actor: AuthUser, id: string): Promise<boolean> {
    const result = await this.requests.delete({ id: (await this.own(actor, id)).id, uid: actor.id });
    return (result.affected ?? 0) > 0;
  }

  /**
   * Reports a request as abuse or spam: it leaves the inbox, loses its reply address (no reply
   * can be sent to it) and stays for the operators until the member's retention ends.
   */
  async report(actor: AuthUser, id: string): Promise<boolean> {
    const record = await this.own(actor, id);
    await this.requests.update({ id: record.id }, { reportedAt: this.deps.clock(), replyTo: null });
    return true;
  }

  /**
   * Mails the member's reply to the address the visitor left, from the app: the member never
   * learns the address, and the visitor sees only the member's page name. A member over the hourly
   * limit of replies gets `RATE_LIMITED`, and nothing is sent.
   */
  async reply(actor: AuthUser, input: PrayerReplyInput): Promise<PrayerRequest> {
    const message = optionalText(input.message, MAX_PRAYER_REPLY_LENGTH, 'input.message', 'A reply');
    if (message === null) throw badUserInput('Please write your reply.', 'input.message');
    const record = await this.own(actor, input.id);
    if (record.replyTo === null) {
      throw appError(ErrorCode.BAD_USER_INPUT, 'This visitor left no address, so a reply cannot be sent.', {
        field: 'input.id',
      });
    }
    const { dataSource } = this.deps;
    const [member, profile] = await Promise.all([
      dataSource.getRepository(UserRecord).findOneBy({ uid: actor.id }),
      dataSource.getRepository(ProfileRecord).findOneBy({ uid: actor.id }),
    ]);
    requireLiveMember(member);
    await this.deps.limits.takeReply(actor.id);
    const memberName = profile?.name ?? member?.first ?? 'Your friend';
    await this.deps.mailer.send(prayerReplyMail({ to: record.replyTo, memberName, message, request: record.body }));
    record.repliedAt = this.deps.clock();
    record.readAt ??= record.repliedAt;
    await this.requests.update({ id: record.id }, { repliedAt: record.repliedAt, readAt: record.readAt });
    return toPrayerRequest(record);
  }
}
