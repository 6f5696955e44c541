import { setTimeout as sleep } from 'node:timers/promises';
import { decodeJwt } from 'jose';
import type { AuthUser } from '../graphql/context.js';
import { appError, badUserInput, ErrorCode } from '../graphql/errors.js';
import type { CallerInfo, IdentityClient, IdentitySession, IdentityUser } from '../identity/identity.client.js';
import { requireRecentEmailLink, requireSecondFactor } from '../identity/assurance.js';
import { IdentityError } from '../identity/identity.client.js';
import { requireLiveMember } from '../members/live-member.js';
import type { AccountLifecycle } from '../members/member-lifecycle.js';
import { cleanName } from '../profiles/names.js';
import { normalizeChosenUsername, usernameTaken } from '../profiles/username.js';
import { todayIn } from '../verses/day.js';
import type {
  ChangePasswordInput,
  EmailCodeInput,
  LoginInput,
  ResetPasswordInput,
  SignUpInput,
} from './account.inputs.js';
import { AnswerFloor } from './answer-floor.js';
import { fromIdentityError } from './identity-errors.js';
import type { MemberRecordPair, MemberRecords } from './member-records.js';
import type { SignInLimits } from './sign-in-limits.js';
import type { SignUpMetadata } from './signup-checks.js';
import {
  checkBirthday,
  checkPassword,
  checkPlatformID,
  metadataOf,
  normalEmail,
  SIGNED_UP_MARKER,
} from './signup-checks.js';

/**
 * With confirmation on, a sign-up answers no sooner than this on a quiet machine: a new address
 * costs two transactions that a known one does not, and the time must not tell which it was (B10).
 * Under load the floor rises with the new addresses' own time (answer-floor.ts).
 */
const CONFIRMATION_ANSWER_FLOOR_MS = 300;

/** The member records of a session, for the payloads of the session mutations. */
export interface SignedIn extends MemberRecordPair {
  session: IdentitySession;
}

export interface SignUpOutcome {
  signedIn: SignedIn | null;
  confirmationSent: boolean;
}

export interface AccountServiceOptions {
  /** The web app's address: emailed links lead to its pages. */
  siteUrl: string;
  /** The per-address limits of the sign-in mutations, counted here in both identity modes. */
  limits: SignInLimits;
  /**
   * Told after some of a member's sessions ended here (sign-out, password change, deletion): their
   * open subscription connections check their tokens again (graphql/subscription-server.ts).
   */
  sessionsEnded?: (uid: string) => void;
}

/**
 * Sign-up and sessions: sign-up (identity account, then the member's records, undone if they
 * cannot be written), sign-in, refresh, sign-out, password reset and change, email change, and
 * account deletion.
 */
export class AccountService {
  private readonly answerFloor = new AnswerFloor({ minimumMs: CONFIRMATION_ANSWER_FLOOR_MS });

  constructor(
    private readonly identity: IdentityClient,
    private readonly records: MemberRecords,
    private readonly lifecycle: AccountLifecycle[],
    private readonly options: AccountServiceOptions,
  ) {}

  /**
   * Creates the identity account and the member's records. With confirmation on, no session is
   * returned and the answer is the same whether or not the address was already registered.
   */
  async signUp(input: SignUpInput, caller: CallerInfo): Promise<SignUpOutcome> {
    const started = performance.now();
    const now = new Date();
    const email = normalEmail(input.email, 'input.email');
    checkPlatformID(input.platformID, 'input.platformID');
    checkPassword(input.password, 'input.password');
    const first = cleanName(input.first, 'input.first');
    // Checked before the identity account is made, so that a taken or reserved name creates nothing.
    const username = input.username?.trim() ? normalizeChosenUsername(input.username, 'input.username') : null;
    if (username !== null && (await this.records.usernameInUse(username))) {
      throw usernameTaken(username, 'input.username');
    }
    const metadata: SignUpMetadata = {
      first,
      birthday: input.birthday == null ? null : checkBirthday(input.birthday, now),
      platform: input.platform,
      platformID: input.platformID ?? null,
      day: todayIn(input.timeZone ?? 'UTC', now, 'input.timeZone').date,
    };

    await this.options.limits.take('signup', caller);
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
      await sleep(Math.max(0, started + this.answerFloor.floorMs() - performance.now()));
    };
    // Supabase Auth's stand-in for an address that already has an account: nothing to record.
    if (created.user.identityCount === 0) {
      await answerAtFloor();
      return { signedIn: null, confirmationSent: true };
    }

    const records = await this.records.ensure(created.user, metadata, { compensate: true, username });
    if (created.session === null) {
      this.answerFloor.note(performance.now() - started);
      await answerAtFloor();
    }
    return {
      signedIn: created.session ? { session: created.session, ...records } : null,
      confirmationSent: created.session === null,
    };
  }

  /** Signs in with email and password. */
  async login(input: LoginInput, caller: CallerInfo): Promise<SignedIn> {
    await this.options.limits.take('token', caller);
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
    await this.options.limits.take('token', caller);
    try {
      return await this.signedIn(await this.identity.refreshSession(refreshToken, caller));
    } catch (error) {
      throw fromIdentityError(error);
    }
  }

  /** Ends this session, the others, or all of them. */
  async logout(actor: AuthUser, scope: 'local' | 'others' | 'global'): Promise<void> {
    try {
      // A password alone ends its own session, never the member's others.
      await this.identity.signOut(actor.accessToken, actor.secondFactorPending ? 'local' : scope);
    } catch (error) {
      throw fromIdentityError(error);
    }
    this.options.sessionsEnded?.(actor.id);
  }

  /**
   * Emails a password-reset link and code. Answers the same whether or not the address has an
   * account: only a malformed address, the caller's request limit or an outage is reported (the
   * per-address mail limit would tell that the address has an account, so it is not).
   */
  async requestPasswordReset(email: string, caller: CallerInfo): Promise<void> {
    const address = normalEmail(email, 'email');
    await this.options.limits.take('recover', caller);
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

  /**
   * Emails a sign-in link and code to the account of `email`. Answers the same whether or not the
   * address has an account (no account is made), as `requestPasswordReset` does.
   */
  async requestSignInLink(email: string, caller: CallerInfo): Promise<void> {
    const address = normalEmail(email, 'email');
    await this.options.limits.take('otp', caller);
    try {
      await this.identity.signInWithOtp(address, { ...caller, redirectTo: `${this.options.siteUrl}/email-confirmed` });
    } catch (error) {
      // Supabase Auth's answer for an unknown address, and the per-address mail limit, would both tell.
      if (error instanceof IdentityError && ['otp_disabled', 'over_email_send_rate_limit'].includes(error.code)) return;
      throw fromIdentityError(error, { email: 'email' });
    }
  }

  /** Signs in with the 6-digit code of a sign-in (or confirmation) email. */
  async signInWithEmailCode(input: EmailCodeInput, caller: CallerInfo): Promise<SignedIn> {
    const email = normalEmail(input.email, 'input.email');
    await this.options.limits.take('verify', caller);
    let session: IdentitySession | null;
    try {
      session = await this.identity.verifyOtp({ type: 'email', email, token: input.code.trim() }, caller);
    } catch (error) {
      throw fromIdentityError(error, { email: 'input.email' });
    }
    if (!session) throw appError(ErrorCode.INVALID_TOKEN, 'This link or code has expired or was already used.');
    return this.signedIn(session);
  }

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
      return await this.signedIn(session);
    } catch (error) {
      throw fromIdentityError(error, { password: 'input.newPassword' });
    }
  }

  /**
   * Opens a password-reset link: spends its token and signs in with a session that may set a new
   * password (`setNewPassword`) for the next minutes. A used or expired link is refused here, before
   * the member has typed anything.
   */
  async openRecoveryLink(token: string, caller: CallerInfo): Promise<SignedIn> {
    const tokenHash = token.trim();
    if (tokenHash.length < 6 || tokenHash.length > 256) {
      throw badUserInput("token must be the emailed link's token_hash.", 'token');
    }
    await this.options.limits.take('verify', caller);
    let session: IdentitySession | null;
    try {
      session = await this.identity.verifyOtp({ type: 'recovery', tokenHash }, caller);
    } catch (error) {
      throw fromIdentityError(error);
    }
    if (!session) throw appError(ErrorCode.INVALID_TOKEN, 'This link or code has expired or was already used.');
    return this.signedIn(session);
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
      return this.signedIn(checked);
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
    if (kept) return this.signedIn(kept);
    const session = await this.reauthenticate(actor, input.newPassword, 'input.newPassword', caller);
    await this.identity.signOut(actor.accessToken, 'local').catch((error: unknown) => {
      // The new session is in hand; the old one lapses with its tokens if it cannot be ended now.
      if (!(error instanceof IdentityError)) throw error;
    });
    this.options.sessionsEnded?.(actor.id);
    return this.signedIn(session);
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

  /** The records of a session's account (rebuilt from the identity account if they are missing). */
  async signedIn(session: IdentitySession): Promise<SignedIn> {
    const records = await this.records.ensure(session.user, metadataOf(session.user), { compensate: false });
    requireLiveMember(records.user, 'This account has been deleted.');
    await this.records.syncEmail(records.user, session.user.email);
    return { session, ...records };
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
