import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { In } from 'typeorm';
import type { DataSource, Repository } from 'typeorm';
import { codePoints } from '../db/columns.js';
import { isUniqueViolation } from '../db/errors.js';
import type { AuthUser } from '../graphql/context.js';
import { appError, badUserInput, ErrorCode, unauthenticated } from '../graphql/errors.js';
import type { CallerInfo, IdentityClient, IdentitySession, IdentityUser } from '../identity/identity.client.js';
import { IdentityError } from '../identity/identity.client.js';
import { passwordProblems } from '../identity/password-policy.js';
import { ProfileRecord } from '../profiles/profile.entity.js';
import { cleanName, MAX_NAME_LENGTH } from '../profiles/names.js';
import { newProfile } from '../profiles/profile.defaults.js';
import { parseIsoDate, todayIn } from '../verses/day.js';
import type { VerseService } from '../verses/verse.service.js';
import { DEFAULT_VERSE_ID } from '../verses/verse.service.js';
import { PLATFORM_PATTERN } from './account.inputs.js';
import type { ChangePasswordInput, LoginInput, ResetPasswordInput, SignUpInput } from './account.inputs.js';
import { fromIdentityError } from './identity-errors.js';
import type { RandomSource } from './username.js';
import { generateUsername } from './username.js';
import { UserRecord } from './user.entity.js';

/** A username is drawn at most this many times before sign-up gives up (the odds are astronomical). */
const MAX_USERNAME_DRAWS = 50;
const MINIMUM_AGE_YEARS = 13;
const MAX_EMAIL_LENGTH = 255;
const MAX_PLATFORM_ID_LENGTH = 128;
/**
 * With confirmation on, a sign-up answers no sooner than this: a new address costs two transactions
 * that a known one does not, and the time must not tell which it was (B10).
 */
const CONFIRMATION_ANSWER_FLOOR_MS = 300;

/** What happens around an account's end; the billing service cancels subscriptions here. */
export interface AccountLifecycle {
  /** Throws a coded error when the account must not be deleted now; runs before anything changes. */
  checkDeletable(uid: string): Promise<void>;
  /** Runs after the account is marked for deletion and before its identity account is removed. */
  accountDeleting(uid: string): Promise<void>;
}

/** The member records of a session, for the payloads of the session mutations. */
export interface SignedIn {
  session: IdentitySession;
  user: UserRecord;
  profile: ProfileRecord;
}

export interface ReconcileReport {
  created: number;
  deleted: number;
  failed: number;
}

/** Identity accounts read per page by the reconciliation. */
const RECONCILE_PAGE_SIZE = 1000;

export interface SignUpOutcome {
  signedIn: SignedIn | null;
  confirmationSent: boolean;
}

/**
 * The user_metadata key Lampstand's sign-up sets on every identity account it creates. The
 * reconciliation rebuilds records only for accounts that carry it: on an identity service shared
 * with other apps (one Supabase project), their users must never get a public profile here.
 */
export const SIGNED_UP_MARKER = 'lampstand';

/** The sign-up details kept in the identity account's user_metadata, so that records can be rebuilt. */
interface SignUpMetadata {
  first: string;
  birthday: string | null;
  platform: string;
  platformID: string | null;
  day: string;
}

export interface AccountServiceOptions {
  /** The web app's address: emailed links lead to its pages. */
  siteUrl: string;
  random?: RandomSource;
  log: FastifyBaseLogger;
}

/**
 * Accounts: sign-up (identity account, then the user and profile records, undone if the records
 * cannot be written), sessions, password and email changes, deletion, and the start-up
 * reconciliation that repairs what a crash left between the identity service and the records.
 */
export class AccountService {
  private readonly users: Repository<UserRecord>;
  private readonly random: RandomSource;

  constructor(
    private readonly dataSource: DataSource,
    private readonly identity: IdentityClient,
    private readonly verses: VerseService,
    private readonly lifecycle: AccountLifecycle[],
    private readonly options: AccountServiceOptions,
  ) {
    this.users = dataSource.getRepository(UserRecord);
    this.random = options.random ?? Math.random;
  }

  /**
   * Creates the identity account and the member's records. With confirmation on, no session is
   * returned and the answer is the same whether or not the address was already registered.
   */
  async signUp(input: SignUpInput, caller: CallerInfo): Promise<SignUpOutcome> {
    const started = performance.now();
    const now = new Date();
    const email = normalEmail(input.email, 'input.email');
    if (input.platformID != null && codePoints(input.platformID) > MAX_PLATFORM_ID_LENGTH) {
      throw badUserInput(`platformID must be 1 to ${MAX_PLATFORM_ID_LENGTH} characters`, 'input.platformID');
    }
    checkPassword(input.password, 'input.password');
    const first = cleanName(input.first, 'input.first');
    const metadata: SignUpMetadata = {
      first,
      birthday: input.birthday == null ? null : checkBirthday(input.birthday, now),
      platform: input.platform,
      platformID: input.platformID ?? null,
      day: todayIn(input.timeZone ?? 'UTC', now, 'input.timeZone').date,
    };

    let created: { user: IdentityUser; session: IdentitySession | null };
    try {
      created = await this.identity.signUp(
        { email, password: input.password, data: { ...metadata, [SIGNED_UP_MARKER]: 1 } },
        { ...caller, redirectTo: `${this.options.siteUrl}/email-confirmed` },
      );
    } catch (error) {
      throw fromIdentityError(error, { email: 'input.email', password: 'input.password' });
    }
    const answerAtFloor = async (): Promise<void> => {
      await sleep(Math.max(0, started + CONFIRMATION_ANSWER_FLOOR_MS - performance.now()));
    };
    // Supabase Auth's stand-in for an address that already has an account: nothing to record.
    if (created.user.identityCount === 0) {
      await answerAtFloor();
      return { signedIn: null, confirmationSent: true };
    }

    const records = await this.ensureRecords(created.user, metadata, { compensate: true });
    if (created.session === null) await answerAtFloor();
    return {
      signedIn: created.session ? { session: created.session, ...records } : null,
      confirmationSent: created.session === null,
    };
  }

  /** Signs in with email and password. */
  async login(input: LoginInput, caller: CallerInfo): Promise<SignedIn> {
    let session: IdentitySession;
    try {
      session = await this.identity.signInWithPassword(
        { email: input.email.trim().toLowerCase(), password: input.password },
        caller,
      );
    } catch (error) {
      throw fromIdentityError(error);
    }
    return this.signedIn(session);
  }

  /** Exchanges a refresh token for a new session. */
  async refreshSession(refreshToken: string, caller: CallerInfo): Promise<SignedIn> {
    if (refreshToken.length === 0 || refreshToken.length > 512) {
      throw badUserInput('refreshToken must be the refresh token of a session.', 'refreshToken');
    }
    try {
      return await this.signedIn(await this.identity.refreshSession(refreshToken, caller));
    } catch (error) {
      throw fromIdentityError(error);
    }
  }

  /** Ends this session, the others, or all of them. */
  async logout(actor: AuthUser, scope: 'local' | 'others' | 'global'): Promise<void> {
    try {
      await this.identity.signOut(actor.accessToken, scope);
    } catch (error) {
      throw fromIdentityError(error);
    }
  }

  /**
   * Emails a password-reset link and code. Answers the same whether or not the address has an
   * account: only a malformed address, the caller's request limit or an outage is reported (the
   * per-address mail limit would tell that the address has an account, so it is not).
   */
  async requestPasswordReset(email: string, caller: CallerInfo): Promise<void> {
    const address = normalEmail(email, 'email');
    try {
      await this.identity.resetPasswordForEmail(address, {
        ...caller,
        redirectTo: `${this.options.siteUrl}/reset-password`,
      });
    } catch (error) {
      if (error instanceof IdentityError && error.code === 'over_email_send_rate_limit') return;
      throw fromIdentityError(error, { email: 'email' });
    }
  }

  /** Sets a new password with the emailed link token or code; other sessions end. */
  async resetPassword(input: ResetPasswordInput, caller: CallerInfo): Promise<SignedIn> {
    checkPassword(input.newPassword, 'input.newPassword');
    try {
      const session = await this.identity.verifyOtp(
        input.email == null
          ? { type: 'recovery', tokenHash: input.token.trim() }
          : { type: 'recovery', email: input.email.trim().toLowerCase(), token: input.token.trim() },
        caller,
      );
      if (!session) throw appError(ErrorCode.INVALID_TOKEN, 'This link or code has expired or was already used.');
      await this.identity.updateUser(session, { password: input.newPassword }, caller);
      return await this.signedIn(session);
    } catch (error) {
      throw fromIdentityError(error, { password: 'input.newPassword' });
    }
  }

  /**
   * Starts an email change: links go to the new address (and the current one, with secure change
   * on). The user record follows at the next sign-in or session refresh after the change is confirmed.
   */
  async updateEmail(actor: AuthUser, email: string, caller: CallerInfo): Promise<string> {
    const address = normalEmail(email, 'email');
    if (address === actor.email) throw badUserInput('This is already your email address.', 'email');
    try {
      const user = await this.identity.updateUser(
        { accessToken: actor.accessToken },
        { email: address },
        { ...caller, redirectTo: `${this.options.siteUrl}/email-confirmed` },
      );
      return user.newEmail ?? user.email;
    } catch (error) {
      throw fromIdentityError(error, { email: 'email' });
    }
  }

  /** Changes the password after checking the current one; every other session ends. */
  async changePassword(actor: AuthUser, input: ChangePasswordInput, caller: CallerInfo): Promise<SignedIn> {
    checkPassword(input.newPassword, 'input.newPassword');
    const session = await this.reauthenticate(actor, input.currentPassword, 'input.currentPassword', caller);
    try {
      await this.identity.updateUser(session, { password: input.newPassword }, caller);
    } catch (error) {
      throw fromIdentityError(error, { password: 'input.newPassword' });
    }
    return this.signedIn(session);
  }

  /**
   * Deletes the account after checking the password: marks the records (the profile disappears at
   * once), lets billing cancel subscriptions, removes the identity account, then the records. If a
   * step fails the mark stays and the next attempt, or the reconciliation, finishes the work. A
   * refusal (billing cannot cancel the subscriptions) comes before the mark and changes nothing.
   */
  async deleteAccount(actor: AuthUser, password: string, caller: CallerInfo): Promise<void> {
    await this.reauthenticate(actor, password, 'password', caller);
    for (const hook of this.lifecycle) await hook.checkDeletable(actor.id);
    await this.users.update({ uid: actor.id }, { deletingAt: new Date() });
    await this.finishDeletion(actor.id);
  }

  /** The records of a session's account (rebuilt from the identity account if they are missing). */
  async signedIn(session: IdentitySession): Promise<SignedIn> {
    const records = await this.ensureRecords(session.user, metadataOf(session.user), { compensate: false });
    if (records.user.deletingAt) throw unauthenticated('This account has been deleted.');
    await this.syncEmail(records.user, session.user.email);
    return { session, ...records };
  }

  /**
   * Brings the user record's email to the identity account's once an email change is confirmed.
   * Only sessions fresh from the identity service count: an older access token's email claim could
   * put back an address the member has left.
   */
  private async syncEmail(user: UserRecord, identityEmail: string): Promise<void> {
    if (identityEmail === '' || identityEmail === user.email) return;
    await this.users.update({ uid: user.uid }, { email: identityEmail });
    user.email = identityEmail;
  }

  /**
   * Repairs what a crash or an outage left between the identity service and the records, in the
   * direction each operation was going: an identity account without records gets them (sign-up
   * rolls forward, from the details kept in its metadata, for accounts Lampstand signed up, never
   * for other apps' users of a shared identity service); records marked for deletion, or whose
   * identity account is confirmed gone, are deleted. Only accounts older than `graceMs` are
   * touched, so that sign-ups in flight are left alone. A failure on one account is logged and the
   * pass goes on with the others.
   */
  async reconcile(graceMs: number, options: { pageSize?: number } = {}): Promise<ReconcileReport> {
    const pageSize = options.pageSize ?? RECONCILE_PAGE_SIZE;
    const cutoff = Date.now() - graceMs;
    const listed = new Set<string>();
    const report: ReconcileReport = { created: 0, deleted: 0, failed: 0 };
    const attempt = async (uid: string, work: () => Promise<boolean>, key: 'created' | 'deleted') => {
      try {
        if (await work()) report[key]++;
      } catch (error) {
        report.failed++;
        this.options.log.error({ err: error, uid }, 'reconciliation could not repair an account; it retries later');
      }
    };

    // The total page count in supabase-js's Link parsing is unreliable past 9 pages: read until a short page.
    for (let page = 1; ; page++) {
      const batch = await this.identity.listUsers(page, pageSize);
      for (const user of batch.users) listed.add(user.id);
      const candidates = batch.users.filter(
        (user) => Date.parse(user.createdAt) <= cutoff && user.identityCount > 0 && signedUpHere(user),
      );
      const withRecords = new Set(
        candidates.length === 0
          ? []
          : (
              await this.users.find({ select: { uid: true }, where: { uid: In(candidates.map((user) => user.id)) } })
            ).map((record) => record.uid),
      );
      for (const listedUser of candidates) {
        if (withRecords.has(listedUser.id)) continue;
        await attempt(
          listedUser.id,
          async () => {
            // Asked again by id: a deletion finishing since the listing must not be undone.
            const user = await this.currentIdentity(listedUser.id);
            if (!user || !signedUpHere(user) || (await this.users.existsBy({ uid: user.id }))) return false;
            await this.ensureRecords(user, metadataOf(user), { compensate: false });
            return true;
          },
          'created',
        );
      }
      if (batch.users.length < pageSize) break;
    }

    const records = await this.users.find({ select: { uid: true, joined: true, deletingAt: true } });
    for (const record of records) {
      if (record.deletingAt) {
        await attempt(
          record.uid,
          async () => {
            await this.finishDeletion(record.uid);
            return true;
          },
          'deleted',
        );
      } else if (!listed.has(record.uid) && record.joined.getTime() <= cutoff) {
        // A listing by pages can miss an account that moved between pages: ask for it by id.
        await attempt(record.uid, () => this.deleteIfIdentityGone(record.uid), 'deleted');
      }
    }
    return report;
  }

  /** The identity account as it is now, or null when the identity service says it does not exist. */
  private async currentIdentity(uid: string): Promise<IdentityUser | null> {
    try {
      return await this.identity.getUserById(uid);
    } catch (error) {
      if (error instanceof IdentityError && error.code === 'user_not_found') return null;
      throw error;
    }
  }

  /** Deletes the records of an account only once the identity service says it does not exist. */
  private async deleteIfIdentityGone(uid: string): Promise<boolean> {
    if (await this.currentIdentity(uid)) return false;
    for (const hook of this.lifecycle) await hook.accountDeleting(uid);
    await this.users.delete({ uid });
    return true;
  }

  private async finishDeletion(uid: string): Promise<void> {
    for (const hook of this.lifecycle) await hook.accountDeleting(uid);
    try {
      await this.identity.deleteUser(uid);
    } catch (error) {
      if (!(error instanceof IdentityError && error.code === 'user_not_found')) throw fromIdentityError(error);
    }
    await this.users.delete({ uid });
  }

  private async reauthenticate(
    actor: AuthUser,
    password: string,
    field: string,
    caller: CallerInfo,
  ): Promise<IdentitySession> {
    try {
      return await this.identity.signInWithPassword({ email: actor.email, password }, caller);
    } catch (error) {
      if (error instanceof IdentityError && error.code === 'invalid_credentials') {
        throw appError(ErrorCode.INVALID_CREDENTIALS, 'Your current password is not right.', {
          field,
          identityCode: error.code,
        });
      }
      throw fromIdentityError(error);
    }
  }

  /**
   * The account's records, created if missing. With `compensate`, a failure to write them removes
   * the identity account again, so that a failed sign-up leaves nothing behind.
   */
  private async ensureRecords(
    account: IdentityUser,
    metadata: SignUpMetadata,
    options: { compensate: boolean },
  ): Promise<{ user: UserRecord; profile: ProfileRecord }> {
    const existing = await this.findRecords(account.id);
    if (existing) return existing;
    try {
      return await this.createRecords(account, metadata);
    } catch (error) {
      const raced = await this.findRecords(account.id);
      if (raced) return raced;
      if (options.compensate) await this.removeIdentityAccount(account.id, error);
      throw error;
    }
  }

  private async findRecords(uid: string): Promise<{ user: UserRecord; profile: ProfileRecord } | null> {
    const [user, profile] = await Promise.all([
      this.users.findOneBy({ uid }),
      this.dataSource.getRepository(ProfileRecord).findOneBy({ uid }),
    ]);
    return user && profile ? { user, profile } : null;
  }

  /** Writes the user and profile records in one transaction, drawing usernames until one is free. */
  private async createRecords(
    account: IdentityUser,
    metadata: SignUpMetadata,
  ): Promise<{ user: UserRecord; profile: ProfileRecord }> {
    const verse = await this.verses.byId(DEFAULT_VERSE_ID);
    if (!verse) throw new Error(`the default verse ${DEFAULT_VERSE_ID} is missing from the verses table`);
    const now = new Date();
    const user = Object.assign(new UserRecord(), {
      uid: account.id,
      email: account.email,
      first: metadata.first,
      birthday: metadata.birthday,
      joined: now,
      platform: metadata.platform,
      platformID: metadata.platformID,
      stripeRole: null,
      deletingAt: null,
    });
    const profiles = this.dataSource.getRepository(ProfileRecord);
    for (let draw = 0; draw < MAX_USERNAME_DRAWS; draw++) {
      const username = generateUsername(account.id, metadata.first, draw, this.random);
      if (await profiles.existsBy({ username })) continue;
      const profile = newProfile({ uid: account.id, name: metadata.first, username, verse, day: metadata.day, now });
      try {
        await this.dataSource.transaction(async (manager) => {
          await manager.insert(UserRecord, user);
          await manager.insert(ProfileRecord, profile);
        });
        return { user, profile };
      } catch (error) {
        // Another sign-up took the username between the check and the insert: draw again.
        if (!isUniqueViolation(error) || (await this.users.existsBy({ uid: account.id }))) throw error;
      }
    }
    throw new Error(`no free username after ${MAX_USERNAME_DRAWS} draws`);
  }

  private async removeIdentityAccount(uid: string, cause: unknown): Promise<void> {
    try {
      await this.identity.deleteUser(uid);
      this.options.log.warn({ err: cause, uid }, 'sign-up undone: the records could not be written');
    } catch (error) {
      this.options.log.error(
        { err: error, cause, uid },
        'sign-up could not be undone; the reconciliation at the next start will repair it',
      );
    }
  }
}

/** Whether Lampstand's sign-up created the identity account (its metadata carries the marker). */
function signedUpHere(user: IdentityUser): boolean {
  return user.userMetadata[SIGNED_UP_MARKER] === 1;
}

/**
 * Sign-up details kept in an identity account's metadata, for rebuilding its records. The metadata
 * is the account holder's to write (Supabase Auth's /signup and PUT /user take any `data`), so
 * every value meets the sign-up rules or falls back to a safe default.
 */
function metadataOf(user: IdentityUser): SignUpMetadata {
  const data = user.userMetadata;
  const text = (key: string): string | null => (typeof data[key] === 'string' ? data[key] : null);
  const valid = <T>(check: () => T): T | null => {
    try {
      return check();
    } catch {
      return null;
    }
  };
  const emailName = user.email.split('@')[0] ?? '';
  const first =
    valid(() => cleanName(text('first') ?? '', 'first')) ??
    valid(() => cleanName(emailName.slice(0, MAX_NAME_LENGTH), 'first')) ??
    'Friend';
  const platform = text('platform');
  const platformID = text('platformID');
  const birthday = text('birthday');
  const day = text('day');
  return {
    first,
    birthday: birthday === null ? null : valid(() => checkBirthday(birthday, new Date())),
    platform: platform !== null && PLATFORM_PATTERN.test(platform) ? platform : 'api',
    platformID:
      platformID !== null && codePoints(platformID) <= MAX_PLATFORM_ID_LENGTH && !/\p{Cc}/u.test(platformID)
        ? platformID
        : null,
    day: (day === null ? null : valid(() => parseIsoDate(day).date)) ?? new Date().toISOString().slice(0, 10),
  };
}

/** The address trimmed and lowercased, or BAD_USER_INPUT on `field` when it cannot be one. */
function normalEmail(value: string, field: string): string {
  const address = value.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address) || codePoints(address) > MAX_EMAIL_LENGTH) {
    throw badUserInput('email must be a valid email address', field);
  }
  return address;
}

/** The password policy, checked here too so that it holds whichever identity service is used. */
function checkPassword(password: string, field: string): void {
  const { tooLong, weak } = passwordProblems(password);
  if (tooLong) throw badUserInput(tooLong, field);
  if (weak.length > 0) {
    throw appError(ErrorCode.WEAK_PASSWORD, weak.map((problem) => problem.message).join(' '), {
      field,
      reasons: weak.map((problem) => problem.reason),
    });
  }
}

/** A real date in the past, at least 13 years ago. */
function checkBirthday(value: string, now: Date): string {
  const { date } = parseIsoDate(value, 'input.birthday');
  const today = now.toISOString().slice(0, 10);
  if (date >= today) throw badUserInput('birthday must be in the past', 'input.birthday');
  const [year, rest] = [Number(today.slice(0, 4)), today.slice(4)];
  const thirteenYearsAgo = `${String(year - MINIMUM_AGE_YEARS).padStart(4, '0')}${rest}`;
  if (date > thirteenYearsAgo) {
    throw badUserInput(`You must be at least ${MINIMUM_AGE_YEARS} to use Lampstand.`, 'input.birthday');
  }
  return date;
}
