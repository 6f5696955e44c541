import type { FastifyBaseLogger } from 'fastify';
import { In } from 'typeorm';
import type { DataSource, Repository } from 'typeorm';
import type { IdentityClient, IdentityUser } from '../identity/identity.client.js';
import { IdentityError } from '../identity/identity.client.js';
import { isLiveMember } from '../rules/page-access.js';
import { UserRecord } from '../members/user.entity.js';
import type { MemberRecords } from './member-records.js';
import { metadataOf, signedUpHere } from './signup-checks.js';

export interface ReconcileReport {
  created: number;
  deleted: number;
  failed: number;
}

/** Identity accounts read per page by the reconciliation. */
const RECONCILE_PAGE_SIZE = 1000;

/**
 * The reconciler of accounts with the identity service (run at start and hourly): rolls
 * interrupted sign-ups forward and finishes interrupted deletions.
 */
export class AccountReconciler {
  private readonly users: Repository<UserRecord>;

  constructor(
    dataSource: DataSource,
    private readonly identity: IdentityClient,
    private readonly records: MemberRecords,
    private readonly log: FastifyBaseLogger,
  ) {
    this.users = dataSource.getRepository(UserRecord);
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
        this.log.error({ err: error, uid }, 'reconciliation could not repair an account; it retries later');
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
            await this.records.ensure(user, metadataOf(user), { compensate: false });
            return true;
          },
          'created',
        );
      }
      if (batch.users.length < pageSize) break;
    }

    const records = await this.users.find({ select: { uid: true, joined: true, deletingAt: true } });
    for (const record of records) {
      if (!isLiveMember(record)) {
        await attempt(
          record.uid,
          async () => {
            await this.records.finishDeletion(record.uid);
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
    await this.records.deleteOrphaned(uid);
    return true;
  }
}
