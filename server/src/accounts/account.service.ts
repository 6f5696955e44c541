import { setTimeout as sleep } from 'node:timers/promises';
import type { AuthUser } from '../graphql/context.js';
import { appError, badUserInput, ErrorCode } from '../graphql/errors.js';
import type { CallerInfo, IdentityClient, IdentitySession, IdentityUser } from '../identity/identity.client.js';
import { IdentityError } from '../identity/identity.client.js';
import { requireLiveMember } from '../members/live-member.js';
import { cleanName } from '../profiles/names.js';
import { normalizeChosenUsername, usernameTaken } from '../profiles/username.js';
import { todayIn } from '../verses/day.js';
import type { EmailCodeInput, LoginInput, SignUpInput } from './account.inputs.js';
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
   * Told after some of a member's sessions ended here or in AccountChangeService (sign-out, password
   * change, deletion): their open subscription connections check their tokens again
   * (graphql/subscription-server.ts).
   */
  sessionsEnded?: (uid: string) => void;
}

/**
 * Sign-up and sessions: sign-up (identity account, then the member's records, undone if they
 * cannot be written), sign-in with a password or an emailed link or code, refresh, and sign-out.
 * Password, email and deletion changes are `AccountChangeService`'s.
 */
export class AccountService {
  private readonly answerFloor = new AnswerFloor({ minimumMs: CONFIRMATION_ANSWER_FLOOR_MS });

  constructor(
    private readonly identity: IdentityClient,
    private readonly records: MemberRecords,
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

  /** The records of a session's account (rebuilt from the identity account if they are missing). */
  async signedIn(session: IdentitySession): Promise<SignedIn> {
    const records = await this.records.ensure(session.user, metadataOf(session.user), { compensate: false });
    requireLiveMember(records.user, 'This account has been deleted.');
    await this.records.syncEmail(records.user, session.user.email);
    return { session, ...records };
  }
}
