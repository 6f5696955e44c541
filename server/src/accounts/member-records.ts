import type { FastifyBaseLogger } from 'fastify';
import type { DataSource, Repository } from 'typeorm';
import { isUniqueViolation } from '../db/errors.js';
import { joinedKeyLookup } from '../db/key-lookup.js';
import type { IdentityClient, IdentityUser } from '../identity/identity.client.js';
import { IdentityError } from '../identity/identity.client.js';
import type { AccountLifecycle } from '../members/member-lifecycle.js';
import { UserRecord } from '../members/user.entity.js';
import { ProfileRecord } from '../profiles/profile.entity.js';
import { newProfile } from '../profiles/profile.defaults.js';
import type { RandomSource } from '../profiles/username.js';
import { generateUsername, isReservedUsername, usernameTaken } from '../profiles/username.js';
import type { VerseService } from '../verses/verse.service.js';
import { DEFAULT_VERSE_ID } from '../verses/verse.service.js';
import { fromIdentityError } from './identity-errors.js';
import type { SignUpMetadata } from './signup-checks.js';

/** A username is drawn at most this many times before sign-up gives up (the odds are astronomical). */
const MAX_USERNAME_DRAWS = 50;

/** A member's two records. */
export interface MemberRecordPair {
  user: UserRecord;
  profile: ProfileRecord;
}

export interface MemberRecordsOptions {
  random?: RandomSource;
  log: FastifyBaseLogger;
}

/**
 * The member's records beside their identity account: the user and profile written together (a
 * free username drawn), undone when a sign-up cannot finish; the email kept in step; and the
 * records removed, after billing and the identity account, when the account ends.
 */
export class MemberRecords {
  private readonly users: Repository<UserRecord>;
  private readonly random: RandomSource;

  constructor(
    private readonly dataSource: DataSource,
    private readonly identity: IdentityClient,
    private readonly verses: VerseService,
    private readonly lifecycle: AccountLifecycle[],
    private readonly options: MemberRecordsOptions,
  ) {
    this.users = dataSource.getRepository(UserRecord);
    this.random = options.random ?? Math.random;
  }

  /** Marks the account as being deleted: from now on the member is gone for everyone. */
  async markDeleting(uid: string): Promise<void> {
    await this.users.update({ uid }, { deletingAt: new Date() });
  }

  /**
   * Brings the user record's email to the identity account's once an email change is confirmed.
   * Only sessions fresh from the identity service count: an older access token's email claim could
   * put back an address the member has left.
   */
  async syncEmail(user: UserRecord, identityEmail: string): Promise<void> {
    if (identityEmail === '' || identityEmail === user.email) return;
    await this.users.update({ uid: user.uid }, { email: identityEmail });
    user.email = identityEmail;
  }

  /**
   * Finishes an account's deletion: lifecycle hooks (billing stops), the identity account (one
   * already gone is fine), then the records. Safe to run again after a failure at any step.
   */
  async finishDeletion(uid: string): Promise<void> {
    for (const hook of this.lifecycle) await hook.accountDeleting(uid);
    try {
      await this.identity.deleteUser(uid);
    } catch (error) {
      if (!(error instanceof IdentityError && error.code === 'user_not_found')) throw fromIdentityError(error);
    }
    await this.users.delete({ uid });
  }

  /** Deletes the records of an account whose identity account is confirmed gone. */
  async deleteOrphaned(uid: string): Promise<void> {
    for (const hook of this.lifecycle) await hook.accountDeleting(uid);
    await this.users.delete({ uid });
  }

  /**
   * The account's records, created if missing. With `compensate`, a failure to write them removes
   * the identity account again, so that a failed sign-up leaves nothing behind.
   */
  async ensure(
    account: IdentityUser,
    metadata: SignUpMetadata,
    options: { compensate: boolean; username?: string | null },
  ): Promise<MemberRecordPair> {
    const existing = await this.find(account.id);
    if (existing) return existing;
    try {
      return await this.create(account, metadata, options.username ?? null);
    } catch (error) {
      const raced = await this.find(account.id);
      if (raced) return raced;
      if (options.compensate) await this.removeIdentityAccount(account.id, error);
      throw error;
    }
  }

  /** Whether a member has this username. */
  usernameInUse(username: string): Promise<boolean> {
    return this.dataSource.getRepository(ProfileRecord).existsBy({ username });
  }

  /** The member's user and profile records, or null unless both exist. */
  async find(uid: string): Promise<MemberRecordPair | null> {
    // Every sign-in reads both records: one statement (db/key-lookup.ts).
    const byUid = joinedKeyLookup(this.dataSource, UserRecord, 'uid', { entity: ProfileRecord, on: ['uid', 'uid'] });
    const [found] = await byUid([uid]);
    const [user, profile] = found ?? [null, null];
    return user && profile ? { user, profile } : null;
  }

  /**
   * Writes the user and profile records in one transaction, with the chosen username (USERNAME_TAKEN
   * when another member has it) or drawing usernames until one is free.
   */
  private async create(
    account: IdentityUser,
    metadata: SignUpMetadata,
    chosen: string | null,
  ): Promise<MemberRecordPair> {
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
      const username = chosen ?? generateUsername(account.id, metadata.first, draw, this.random);
      if (!chosen && isReservedUsername(username)) continue;
      if (await profiles.existsBy({ username })) {
        if (chosen) throw usernameTaken(chosen, 'input.username');
        continue;
      }
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
        if (chosen) throw usernameTaken(chosen, 'input.username');
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
