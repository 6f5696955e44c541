import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EntityManager } from 'typeorm';
import type { IdentityContext } from '../context.js';
import { AuthOneTimeTokenRecord, AuthSessionRecord } from '../entities.js';
import type { AmrEntry } from '../entities.js';
import { badRequest, tooManyRequests, unprocessable } from '../errors.js';
import { sendReauthentication } from '../emails.js';
import { verifyPassword } from '../passwords.js';
import { LOCKED, giveBackAttempt, takeAttempt } from '../rate-limits.js';
import type { Authenticated } from '../request.js';
import type { UserCall } from '../route.js';
import { findCodeToken } from './verify.js';

const INVALID_NONCE = 'Nonce has expired or is invalid';

/** Sign-ins that prove the member themselves (a password or a second factor), not just the mailbox. */
const FRESH_METHODS = new Set(['password', 'totp']);
/**
 * Sign-ins by an emailed link or code: recent ones count as a fresh sign-in, except that they set a
 * password only once (a reset), after which they count for nothing.
 */
export const EMAIL_LINK_METHODS = new Set(['otp', 'recovery', 'magiclink', 'invite', 'email/signup']);

/** What a sensitive change is: a new password, a new email address, or removing a verified factor. */
export type SensitiveChange = 'password' | 'email' | 'factor';

/** The proofs a caller may send with a sensitive change (`current_password`, `nonce`). */
export interface ReauthenticationProof {
  currentPassword: string;
  nonce: string;
}

/** How a change was allowed: `email_link` is the one-time allowance of a session from an emailed link. */
export type Reauthenticated = 'current_password' | 'nonce' | 'fresh_sign_in' | 'email_link';

/** `GET /reauthenticate` (signed in): mails the caller a nonce for a sensitive change. */
export async function reauthenticate(
  _request: FastifyRequest,
  _reply: FastifyReply,
  { context, auth }: UserCall,
): Promise<unknown> {
  const { user } = auth;
  if (!user.email) {
    throw badRequest('validation_failed', 'Reauthentication requires the user to have an email or a phone number');
  }
  if (!user.emailConfirmedAt) throw unprocessable('email_not_confirmed', 'Please verify your email first.');
  await sendReauthentication(context, user);
  return {};
}

function withinWindow(context: IdentityContext, entries: AmrEntry[], methods: Set<string>): boolean {
  const since = Date.now() / 1000 - context.settings.reauthenticationWindow;
  return entries.some((entry) => methods.has(entry.method) && entry.timestamp >= since);
}

async function checkCurrentPassword(context: IdentityContext, auth: Authenticated, password: string): Promise<void> {
  const { user } = auth;
  // Wrong current passwords are counted per account, whatever the address: a stolen token must not
  // become a way to guess the password.
  const key = user.id;
  if (!(await takeAttempt(context.limits.accountSecrets, key))) {
    throw tooManyRequests('over_request_rate_limit', 'Too many wrong passwords: try again later.', LOCKED);
  }
  if (user.encryptedPassword !== null && (await verifyPassword(user.encryptedPassword, password))) {
    await giveBackAttempt(context.limits.accountSecrets, key);
    return;
  }
  throw badRequest('current_password_mismatch', 'The current password is not right.');
}

async function checkNonce(context: IdentityContext, auth: Authenticated, nonce: string): Promise<void> {
  const { user } = auth;
  const invalid = () => unprocessable('reauthentication_not_valid', INVALID_NONCE);
  const token = await findCodeToken(context, user.email ?? '', nonce, ['reauthentication_token']);
  if (token?.userId !== user.id) throw invalid();
  if (token.createdAt.getTime() + context.settings.otpExp * 1000 < Date.now()) throw invalid();
  const spent = await context.dataSource.manager.delete(AuthOneTimeTokenRecord, { id: token.id });
  if (spent.affected !== 1) throw invalid();
}

/**
 * Stricter than Supabase Auth (which asks nothing by default, and with secure password change only
 * a nonce from sessions over a day old): a new password, a new email address or removing a verified
 * factor needs one of the current password (`current_password`, Supabase Auth's field), the nonce
 * `GET /reauthenticate` mailed (`nonce`), or a sign-in of this session with a password or a second
 * factor (or an emailed link) within AUTH_REAUTHENTICATION_WINDOW. A session from an emailed link
 * (a reset) sets a password once within that window; `spendEmailLink` records that it did.
 */
export async function requireReauthentication(
  context: IdentityContext,
  auth: Authenticated,
  proof: ReauthenticationProof,
  change: SensitiveChange,
): Promise<Reauthenticated> {
  if (proof.currentPassword !== '') {
    await checkCurrentPassword(context, auth, proof.currentPassword);
    return 'current_password';
  }
  if (proof.nonce !== '') {
    await checkNonce(context, auth, proof.nonce);
    return 'nonce';
  }
  const amr = auth.session?.amr ?? [];
  if (withinWindow(context, amr, FRESH_METHODS)) return 'fresh_sign_in';
  if (withinWindow(context, amr, EMAIL_LINK_METHODS)) return change === 'password' ? 'email_link' : 'fresh_sign_in';
  const minutes = Math.round(context.settings.reauthenticationWindow / 60);
  throw badRequest(
    'reauthentication_needed',
    `This change needs the current password (current_password), a sign-in in the last ${minutes} minutes, ` +
      'or the nonce GET /reauthenticate mails (nonce).',
  );
}

/**
 * Spends a session's one password change from an emailed link: its link sign-ins leave its `amr`
 * (in the stored session; its tokens show it from their next refresh). Runs inside the change's
 * transaction after the user's row is locked, so of two changes at once the second finds it spent.
 */
export async function spendEmailLink(
  context: IdentityContext,
  manager: EntityManager,
  sessionId: string,
): Promise<void> {
  const session = await manager.findOneBy(AuthSessionRecord, { id: sessionId });
  if (!session || !withinWindow(context, session.amr, EMAIL_LINK_METHODS)) {
    throw badRequest('reauthentication_needed', 'This session has already set a password: sign in again.');
  }
  const amr = session.amr.filter((entry) => !EMAIL_LINK_METHODS.has(entry.method));
  await manager.update(AuthSessionRecord, { id: session.id }, { amr, updatedAt: new Date() });
}
