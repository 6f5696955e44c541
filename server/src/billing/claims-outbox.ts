import type { FastifyBaseLogger } from 'fastify';
import type { DataSource, EntityManager } from 'typeorm';
import type { IdentityClient } from '../identity/identity.client.js';
import { IdentityError } from '../identity/identity.client.js';
import { UserRecord } from '../members/user.entity.js';
import { BillingPendingClaimRecord } from './billing.entities.js';

/** Queues the member's claim for writing, in the caller's transaction (the role it carries is read at write time). */
export async function queueClaim(manager: EntityManager, uid: string): Promise<void> {
  await manager.upsert(BillingPendingClaimRecord, { uid, queuedAt: new Date() }, ['uid']);
}

/**
 * The outbox of `stripeRole` claims: a member's role, once changed in `users.stripe_role`, is
 * written to their identity account's `app_metadata.stripeRole`, and retried until it is.
 */
export class ClaimsOutbox {
  /** The last claim write started, per member: each new one waits for it, so that they run one at a time. */
  private readonly claimWrites = new Map<string, Promise<void>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly identity: IdentityClient,
    private readonly log: FastifyBaseLogger,
    /** Told after each member's claim write, done or not: their plan in the database is settled by then. */
    private readonly written: (uid: string) => void = () => undefined,
  ) {}

  /** Writes every queued claim; one that fails stays queued for the next pass. Returns how many were written. */
  async flushPending(): Promise<number> {
    const pending = await this.dataSource.getRepository(BillingPendingClaimRecord).find({ select: { uid: true } });
    let claimsWritten = 0;
    for (const { uid } of pending) {
      try {
        await this.flush([uid]);
        claimsWritten++;
      } catch (error) {
        this.log.warn({ err: error, uid }, 'stripeRole claim still not written; retrying later');
      }
    }
    return claimsWritten;
  }

  /**
   * Writes each member's pending claim to their identity account (see writeClaim). Writes for one
   * member run one after another, each starting afresh once the previous one is done (whether it
   * failed or not): joining one in flight could return before the latest role is written.
   */
  async flush(uids: readonly string[]): Promise<void> {
    for (const uid of uids) {
      const previous = this.claimWrites.get(uid) ?? Promise.resolve();
      const write = previous.catch(() => undefined).then(() => this.writeClaim(uid));
      this.claimWrites.set(uid, write);
      const forget = (): void => {
        if (this.claimWrites.get(uid) === write) this.claimWrites.delete(uid);
      };
      write.then(forget, forget);
      try {
        await write;
      } finally {
        this.written(uid);
      }
    }
  }

  /**
   * Writes the member's role to their identity account's `app_metadata.stripeRole` (removed when
   * null), so that the next token carries it, then removes the pending claim. The role is read
   * again after each write and written again until it stays the same, so that a write that read
   * it before a change (here or on another server) cannot be the last word. A claim queued again
   * meanwhile (a newer `queuedAt`) stays queued.
   */
  private async writeClaim(uid: string): Promise<void> {
    const pending = this.dataSource.getRepository(BillingPendingClaimRecord);
    const claim = await pending.findOneBy({ uid });
    if (!claim) return;
    const roleNow = async (): Promise<string | null> =>
      (await this.dataSource.getRepository(UserRecord).findOneBy({ uid }))?.stripeRole ?? null;
    let role = await roleNow();
    for (;;) {
      try {
        await this.identity.updateUserById(uid, { appMetadata: { stripeRole: role } });
      } catch (error) {
        if (!(error instanceof IdentityError && error.code === 'user_not_found')) throw error;
      }
      const after = await roleNow();
      if (after === role) break;
      role = after;
    }
    await pending.delete({ uid, queuedAt: claim.queuedAt });
  }
}
