import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { DataSource } from 'typeorm';
import { IsNull } from 'typeorm';
import { codePoints } from '../db/columns.js';
import { rateLimitKey } from '../http/address-key.js';
import { noteOf } from '../http/rate-limit-headers.js';
import type { Loaders } from '../graphql/context.js';
import { appError, badUserInput, ErrorCode, rateLimited } from '../graphql/errors.js';
import type { ProfileService } from '../profiles/profile.service.js';
import { ReportRecord } from './moderation.entities.js';
import type { ReportPageInput } from './report.types.js';
import { MAX_REPORT_NOTE_LENGTH, REPORT_REASONS } from './report.types.js';

/** Reports one address may send: a few an hour is plenty for a person, too few to flood the queue. */
const REPORTS_PER_HOUR = 5;
/** What a queue listing shows at most at once. */
const MAX_PAGE_SIZE = 200;

/** A control character other than tab and line breaks: never part of a note a person typed. */
const CONTROL = /[^\P{Cc}\t\n\r]/u;

/** Visitors' reports of pages, and the operators' queue of them. */
export class ReportService {
  private readonly limiter: RateLimiterAbstract;

  constructor(
    private readonly dataSource: DataSource,
    private readonly profiles: ProfileService,
    redis?: Redis,
  ) {
    const options = { keyPrefix: 'lampstand:reports', points: REPORTS_PER_HOUR, duration: 3600 };
    // With Redis, every instance counts together; its own count stands in while Redis is away.
    this.limiter = redis
      ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) })
      : new RateLimiterMemory(options);
  }

  /**
   * Files a visitor's report of a page they can see. Bad input (`BAD_USER_INPUT`), a page visitors
   * cannot see (`NOT_FOUND`) and an address over its hourly limit (`RATE_LIMITED`) write nothing.
   */
  async report(
    input: ReportPageInput,
    clientIp: string,
    loaders: Pick<Loaders, 'profileByUsername' | 'userByUid'>,
  ): Promise<ReportRecord> {
    if (!REPORT_REASONS.includes(input.reason)) badInput('Choose a reason from the list.', 'input.reason');
    const note = (input.note ?? '').trim();
    if (codePoints(note) > MAX_REPORT_NOTE_LENGTH) {
      badInput(`The note can be at most ${String(MAX_REPORT_NOTE_LENGTH)} characters.`, 'input.note');
    }
    if (CONTROL.test(note)) badInput('The note has characters that cannot be kept.', 'input.note');
    const page = await this.profiles.findPublic(input.username, loaders);
    if (!page) throw appError(ErrorCode.NOT_FOUND, 'There is no page with that username to report.');
    try {
      await this.limiter.consume(rateLimitKey(clientIp));
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      const note = noteOf(this.limiter, error);
      throw rateLimited('You have sent several reports already. Please try again later.', note, {
        retryAfterSeconds: note.retryAfterSeconds,
      });
    }
    const report = Object.assign(new ReportRecord(), {
      id: randomUUID(),
      uid: page.uid,
      username: page.username,
      reason: input.reason,
      note,
      createdAt: new Date(),
      resolvedAt: null,
      resolvedBy: null,
      resolution: null,
    });
    // One INSERT, outside a transaction: on SQLite a transaction must hold the connection's lock
    // (db/sqlite-serial.ts), which a repository's own save transaction does not take.
    return this.dataSource.getRepository(ReportRecord).save(report, { transaction: false });
  }

  /** The queue: open reports (or all), oldest first, so the longest waiting come first. */
  async list(options: { all?: boolean; limit?: number } = {}): Promise<ReportRecord[]> {
    return this.dataSource.getRepository(ReportRecord).find({
      where: options.all ? {} : { resolvedAt: IsNull() },
      order: { createdAt: 'ASC', id: 'ASC' },
      take: Math.min(Math.max(options.limit ?? 50, 1), MAX_PAGE_SIZE),
    });
  }
}

function badInput(message: string, field: string): never {
  throw badUserInput(message, field);
}
