import { decodeJwt } from 'jose';
import type { AuthUser } from '../graphql/context.js';
import { appError, badUserInput, ErrorCode } from '../graphql/errors.js';
import type { CallerInfo, IdentityClient, IdentitySession, IdentityUser } from '../identity/identity.client.js';
import { requireRecentEmailLink, requireSecondFactor } from '../identity/assurance.js';
import { IdentityError } from '../identity/identity.client.js';
import { requireLiveMember } from '../members/live-member.js';
import type { AccountLifecycle } from '../members/member-lifecycle.js';
import type { ChangePasswordInput, ResetPasswordInput } from './account.inputs.js';
import type { AccountService, AccountServiceOptions, SignedIn } from './account.service.js';
import { fromIdentityError } from './identity-errors.js';
import type { MemberRecordPair, MemberRecords } from './member-records.js';
import { checkPassword, metadataOf, normalEmail } from './signup-checks.js';

/**
 * Changes to an account that need proof it is the member's: a new password (with an emailed
 * token, after an emailed sign-in, or with the current one), a new email address, and deletion.
 * Sessions it signs in go through `AccountService.signedIn`, as every other sign-in does.
 */
export class AccountChangeService {
  constructor(
    private readonly identity: IdentityClient,
    private readonly records: MemberRecords,
    private readonly accounts: AccountService,
    private readonly lifecycle: AccountLifecycle[],
    private readonly options: AccountServiceOptions,
  ) {}

  /** Sets a new password with the emailed link token or code; other sessions end. */
  async resetPassword(input: ResetPasswordInput, caller: CallerInfo): Promise<SignedIn> {
    checkPassword(input.newPassword, 'input.newPassword');
    await this.options.limits.take('verify', caller);
    try {
      const session = await this.identity.verifyOtp(
        input.email == null
          ? { type: 'recovery', tokenHash: input.token.trim() }
          : { type: 'recovery', email: input.email.trim().toLowerCase(), token: input.token.trim() },
        caller,
      );
      if (!session) throw appError(ErrorCode.INVALID_TOKEN, 'This link or code has expired or was already used.');
      await this.identity.updateUser(session, { password: input.newPassword }, caller);
      return await this.accounts.signedIn(session);
    } catch (error) {
      throw fromIdentityError(error, { password: 'input.newPassword' });
    }
  }

  /**
   * Sets a password without the current one, from a session an emailed link (recovery, invitation,
   * sign-in link or code) signed in within the last minutes; with two-factor on, that session must
   * have passed it too. Every other session ends; this one stays.
   */
  async setNewPassword(actor: AuthUser, newPassword: string, caller: CallerInfo): Promise<MemberRecordPair> {
    checkPassword(newPassword, 'newPassword');
    requireRecentEmailLink(actor);
    await this.requireSecondFactor(actor);
    let user: IdentityUser;
    try {
      user = await this.identity.updateUser({ accessToken: actor.accessToken }, { password: newPassword }, caller);
    } catch (error) {
      throw fromIdentityError(error, { password: 'newPassword' });
    }
    const records = await this.records.ensure(user, metadataOf(user), { compensate: false });
    requireLiveMember(records.user, 'This account has been deleted.');
    return records;
  }

  /**
   * Starts an email change: links go to the new address (and the current one, with secure change
   * on). The user record follows at the next sign-in or session refresh after the change is confirmed.
   */
  async updateEmail(actor: AuthUser, email: string, caller: CallerInfo, currentPassword?: string): Promise<string> {
    const address = normalEmail(email, 'email');
    if (address === actor.email) throw badUserInput('This is already your email address.', 'email');
    await this.requireSecondFactor(actor);
    try {
      const user = await this.identity.updateUser(
        { accessToken: actor.accessToken },
        { email: address, ...(currentPassword !== undefined && currentPassword !== '' && { currentPassword }) },
        { ...caller, redirectTo: `${this.options.siteUrl}/email-confirmed` },
      );
      return user.newEmail ?? user.email;
    } catch (error) {
      throw fromIdentityError(error, { email: 'email', password: 'currentPassword' });
    }
  }

  /** Changes the password after checking the current one; every other session ends. */
  async changePassword(actor: AuthUser, input: ChangePasswordInput, caller: CallerInfo): Promise<SignedIn> {
    checkPassword(input.newPassword, 'input.newPassword');
    await this.requireSecondFactor(actor);
    const checked = await this.reauthenticate(actor, input.currentPassword, 'input.currentPassword', caller);
    const change = { password: input.newPassword, currentPassword: input.currentPassword };
    if (actor.aal !== 'aal2') {
      try {
        await this.identity.updateUser(checked, change, caller);
      } catch (error) {
        throw fromIdentityError(error, { password: 'input.newPassword' });
      }
      this.options.sessionsEnded?.(actor.id);
      return this.accounts.signedIn(checked);
    }
    // A member with two-factor sign-in: the session that checked the password has not passed the
    // code, and the identity service lets only one that has (this one) change it. The change ends
    // every other session, the checking one too, and keeps this one, at aal2: with its refresh
    // token the member continues in it, renewed. Without, they continue in a new session, which
    // asks for the code again, and this one ends.
    try {
      await this.identity.updateUser({ accessToken: actor.accessToken }, change, caller);
    } catch (error) {
      throw fromIdentityError(error, { password: 'input.newPassword' });
    }
    const kept = input.refreshToken ? await this.renewOwnSession(actor, input.refreshToken, caller) : null;
    if (kept) return this.accounts.signedIn(kept);
    const session = await this.reauthenticate(actor, input.newPassword, 'input.newPassword', caller);
    await this.identity.signOut(actor.accessToken, 'local').catch((error: unknown) => {
      // The new session is in hand; the old one lapses with its tokens if it cannot be ended now.
      if (!(error instanceof IdentityError)) throw error;
    });
    this.options.sessionsEnded?.(actor.id);
    return this.accounts.signedIn(session);
  }

  /** This session renewed with its refresh token; null when the token is not this session's or has ended. */
  private async renewOwnSession(
    actor: AuthUser,
    refreshToken: string,
    caller: CallerInfo,
  ): Promise<IdentitySession | null> {
    try {
      const renewed = await this.identity.refreshSession(refreshToken, caller);
      const sessionId = decodeJwt(renewed.accessToken).session_id;
      return sessionId === actor.sessionId && renewed.user.id === actor.id ? renewed : null;
    } catch (error) {
      if (error instanceof IdentityError && error.status < 500) return null;
      throw fromIdentityError(error);
    }
  }

  /**
   * Deletes the account after checking the password: marks the records (the profile disappears at
   * once), lets billing cancel subscriptions, removes the identity account, then the records. If a
   * step fails the mark stays and the next attempt, or the reconciliation, finishes the work. A
   * refusal (billing cannot cancel the subscriptions) comes before the mark and changes nothing.
   */
  async deleteAccount(actor: AuthUser, password: string, caller: CallerInfo): Promise<void> {
    await this.requireSecondFactor(actor);
    await this.reauthenticate(actor, password, 'password', caller);
    for (const hook of this.lifecycle) await hook.checkDeletable(actor.id);
    await this.records.markDeleting(actor.id);
    await this.records.finishDeletion(actor.id);
    this.options.sessionsEnded?.(actor.id);
  }

  /** Account changes need the second factor in this session when the member has one (`MFA_REQUIRED`). */
  private async requireSecondFactor(actor: AuthUser): Promise<void> {
    try {
      await requireSecondFactor(this.identity, actor);
    } catch (error) {
      throw fromIdentityError(error);
    }
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
}
