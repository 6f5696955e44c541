import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { In } from 'typeorm';
import type { MailMessage } from '../../mail/mail.transport.js';
import {
  confirmationMail,
  emailChangeMail,
  inviteMail,
  magicLinkMail,
  reauthenticationMail,
  recoveryMail,
} from '../../mail/templates.js';
import type { IdentityContext } from './context.js';
import { AuthOneTimeTokenRecord, AuthUserRecord } from './entities.js';
import type { OneTimeTokenType } from './entities.js';
import { ApiError, tooManyRequests } from './errors.js';
import type { FlowMethod } from './flow-state.entity.js';
import type { PkceChallenge } from './flow-state.js';
import { PKCE_PREFIX, startFlow } from './flow-state.js';
import { refusalOf } from './rate-limits.js';
import { sha256 } from './sessions.js';
import { lockUser } from './users.js';

const OTP_LENGTH = 6;
/** Both tokens of a pending email change: to the new address and (secure change) to the current one. */
export const EMAIL_CHANGE_TOKENS: OneTimeTokenType[] = ['email_change_token_current', 'email_change_token_new'];

/** A fresh 6-digit code. */
export function generateOtp(): string {
  return String(randomInt(10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
}

/** Supabase Auth's digest of a code: the SHA-224 hex of address + code (its link token, but not ours). */
export function codeDigest(email: string, otp: string): string {
  return createHash('sha224')
    .update(email + otp)
    .digest('hex');
}

/**
 * A link token as long as Supabase Auth's but random: derived from the code, as there, anyone who
 * knows the address could try the million codes as links, where no per-code count can see them.
 */
export function linkToken(): string {
  return randomBytes(28).toString('hex');
}

/**
 * A fresh code and its link token. A PKCE flow's link token carries Supabase Auth's `pkce_` prefix,
 * by which `/verify` answers it with a code; the prefix is part of what is stored, so it can be
 * neither removed (to get a session without the verifier) nor added.
 */
export function newOneTimeToken(pkce: PkceChallenge | null = null): { otp: string; link: string } {
  return { otp: generateOtp(), link: `${pkce ? PKCE_PREFIX : ''}${linkToken()}` };
}

/** The emailed link: `<external url>/verify?token=…&type=…&redirect_to=…`. */
export function actionLink(context: IdentityContext, hash: string, type: string, redirectTo: string): string {
  const query = `token=${encodeURIComponent(hash)}&type=${encodeURIComponent(type)}&redirect_to=${encodeURIComponent(redirectTo)}`;
  return `${context.externalUrl}/verify?${query}`;
}

/**
 * The recovery link leads straight to the page that sets the new password, carrying the link
 * token, as Supabase's documented custom template does
 * (`{{ .RedirectTo }}?token_hash={{ .TokenHash }}&type=recovery`): the page sends the token and
 * the new password in one call, with no session in the URL.
 */
export function pageLink(hash: string, type: string, redirectTo: string): string {
  const url = new URL(redirectTo);
  url.searchParams.set('token_hash', hash);
  url.searchParams.set('type', type);
  return url.toString();
}

/**
 * Stores a one-time token (the SHA-256 of its link token and of its code's digest), replacing the
 * user's previous one of the type, and with it any count of wrong tries.
 */
export async function storeOneTimeToken(
  manager: EntityManager,
  user: AuthUserRecord,
  type: OneTimeTokenType,
  token: { otp: string; link: string },
  relatesTo: string,
): Promise<void> {
  await manager.delete(AuthOneTimeTokenRecord, { userId: user.id, tokenType: type });
  await manager.insert(AuthOneTimeTokenRecord, {
    id: randomUUID(),
    userId: user.id,
    tokenType: type,
    tokenHash: sha256(token.link),
    codeHash: sha256(codeDigest(relatesTo, token.otp)),
    attempts: 0,
    relatesTo,
    createdAt: new Date(),
  });
}

/** 429 when the previous message of this kind went out less than SMTP_MAX_FREQUENCY ago. */
function checkFrequency(context: IdentityContext, sentAt: Date | null): void {
  if (sentAt === null) return;
  const waitMs = sentAt.getTime() + context.settings.smtpMaxFrequency * 1000 - Date.now();
  if (waitMs > 0) {
    throw tooManyRequests(
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${Math.floor(waitMs / 1000)} seconds.`,
      { retryAfterSeconds: Math.ceil(waitMs / 1000) },
    );
  }
}

/** The global hourly mail limit, applied only when confirmation is on, as in Supabase Auth. */
async function checkMailLimit(context: IdentityContext): Promise<void> {
  if (context.settings.autoconfirm) return;
  const refusal = await refusalOf(context.limits.email, 'global');
  if (refusal) throw tooManyRequests('over_email_send_rate_limit', 'email rate limit exceeded', refusal);
}

/**
 * Sends after the answer: sign-up and recovery must answer in the same time whether or not the
 * address has an account, and a mail server's delay would tell. Failures are logged.
 */
function sendInBackground(context: IdentityContext, message: MailMessage): void {
  context.mailer.send(message).catch((error: unknown) => {
    context.log.error({ err: error, to: message.to, subject: message.subject }, 'could not send an account mail');
  });
}

/**
 * Runs a mailing for an endpoint that anyone may call with any address (`/recover`, `/otp`,
 * `/resend`): a mail held back by the per-address frequency limit (or the hourly one) is not sent
 * and not reported, so the answer is the same `200 {}` as for an address without an account.
 * Unlike Supabase Auth, which answers 429 there and so tells which addresses have accounts.
 */
export async function mailQuietly(context: IdentityContext, mailing: () => Promise<void>): Promise<void> {
  try {
    await mailing();
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'over_email_send_rate_limit') throw error;
    context.log.info({ reason: error.message }, 'an account mail was held back by a mail limit');
  }
}

/**
 * Runs such a mailing after the answer: recording the link's token is a write that only an address
 * with an account causes, and on a busy machine that write alone told the two apart (B10). The
 * answer is the same `200 {}` either way; a failure is logged, as a mail server's would be.
 */
export function mailAfterAnswer(context: IdentityContext, mailing: () => Promise<void>): void {
  mailQuietly(context, mailing).catch((error: unknown) => {
    context.log.error({ err: error }, 'could not record or send an account mail');
  });
}

/** Emails the sign-up confirmation link and code (recorded first, so the link works on arrival). */
export async function sendConfirmation(
  context: IdentityContext,
  user: AuthUserRecord,
  redirectTo: string,
  pkce: PkceChallenge | null = null,
): Promise<void> {
  checkFrequency(context, user.confirmationSentAt);
  await checkMailLimit(context);
  const email = user.email ?? '';
  const token = newOneTimeToken(pkce);
  await context.dataSource.transaction(async (manager) => {
    checkFrequency(context, (await lockUser(manager, user.id))?.confirmationSentAt ?? null);
    user.confirmationSentAt = new Date();
    await manager.update(AuthUserRecord, { id: user.id }, { confirmationSentAt: user.confirmationSentAt });
    await storeOneTimeToken(manager, user, 'confirmation_token', token, email);
    await recordFlow(manager, user, 'email/signup', pkce);
  });
  const link = actionLink(context, token.link, 'signup', redirectTo);
  sendInBackground(context, confirmationMail({ to: email, link, otp: token.otp }));
}

/** Starts the PKCE flow of a link about to be mailed; the implicit flow (null) has none. */
async function recordFlow(
  manager: EntityManager,
  user: AuthUserRecord,
  method: FlowMethod,
  pkce: PkceChallenge | null,
): Promise<void> {
  if (pkce) await startFlow(manager, user.id, method, pkce);
}

/** Emails the password-recovery link and code (recorded first, so the link works on arrival). */
export async function sendRecovery(
  context: IdentityContext,
  user: AuthUserRecord,
  redirectTo: string,
  pkce: PkceChallenge | null = null,
): Promise<void> {
  const token = await storeRecoveryToken(context, user, 'recovery', pkce);
  // A PKCE link goes through /verify, which hands the page a code for the client's verifier.
  const link = pkce
    ? actionLink(context, token.link, 'recovery', redirectTo)
    : pageLink(token.link, 'recovery', redirectTo);
  sendInBackground(context, recoveryMail({ to: user.email ?? '', link, otp: token.otp }));
}

/**
 * Records a recovery token (a magic link is one too, as in Supabase Auth), after the frequency and
 * hourly limits, with the PKCE flow it starts.
 */
async function storeRecoveryToken(
  context: IdentityContext,
  user: AuthUserRecord,
  method: FlowMethod,
  pkce: PkceChallenge | null,
): Promise<{ otp: string; link: string }> {
  checkFrequency(context, user.recoverySentAt);
  await checkMailLimit(context);
  const token = newOneTimeToken(pkce);
  await context.dataSource.transaction(async (manager) => {
    // Read again under the row's lock: requests at once all passed the check above on the row read
    // before, and would each send a mail.
    checkFrequency(context, (await lockUser(manager, user.id))?.recoverySentAt ?? null);
    user.recoverySentAt = new Date();
    await manager.update(AuthUserRecord, { id: user.id }, { recoverySentAt: user.recoverySentAt });
    await storeOneTimeToken(manager, user, 'recovery_token', token, user.email ?? '');
    await recordFlow(manager, user, method, pkce);
  });
  return token;
}

/** Emails a sign-in link and 6-digit code (`POST /otp`); `/verify` accepts them as `magiclink` or `email`. */
export async function sendMagicLink(
  context: IdentityContext,
  user: AuthUserRecord,
  redirectTo: string,
  pkce: PkceChallenge | null,
): Promise<void> {
  const token = await storeRecoveryToken(context, user, 'magiclink', pkce);
  const link = actionLink(context, token.link, 'magiclink', redirectTo);
  sendInBackground(context, magicLinkMail({ to: user.email ?? '', link, otp: token.otp }));
}

/** Emails an invitation (`POST /invite`): the link confirms the address and signs the invitee in. */
export async function sendInvite(context: IdentityContext, user: AuthUserRecord, redirectTo: string): Promise<void> {
  await checkMailLimit(context);
  const email = user.email ?? '';
  const token = newOneTimeToken();
  const now = new Date();
  await context.dataSource.transaction(async (manager) => {
    Object.assign(user, { invitedAt: now, confirmationSentAt: now });
    await manager.update(AuthUserRecord, { id: user.id }, { invitedAt: now, confirmationSentAt: now });
    await storeOneTimeToken(manager, user, 'confirmation_token', token, email);
  });
  // An admin asked and waits for the answer, so delivery is awaited and its failure reported.
  await context.mailer.send(
    inviteMail({ to: email, link: actionLink(context, token.link, 'invite', redirectTo), otp: token.otp }),
  );
}

/** Emails the nonce that a password change needs when secure password change is on (`GET /reauthenticate`). */
export async function sendReauthentication(context: IdentityContext, user: AuthUserRecord): Promise<void> {
  const email = user.email ?? '';
  const previous = await context.dataSource.manager.findOneBy(AuthOneTimeTokenRecord, {
    userId: user.id,
    tokenType: 'reauthentication_token',
  });
  checkFrequency(context, previous?.createdAt ?? null);
  await checkMailLimit(context);
  const token = newOneTimeToken();
  await context.dataSource.transaction((manager) =>
    storeOneTimeToken(manager, user, 'reauthentication_token', token, email),
  );
  await context.mailer.send(reauthenticationMail({ to: email, otp: token.otp }));
}

/**
 * Emails the email-change link to the new address, and to the current one as well when secure
 * email change is on; the address changes only once `/verify` accepts the link(s). The tokens are
 * recorded first, so the links work on arrival; if a message cannot be sent, they are removed again.
 */
export async function sendEmailChange(
  context: IdentityContext,
  user: AuthUserRecord,
  newEmail: string,
  redirectTo: string,
  pkce: PkceChallenge | null = null,
  delivery: 'await' | 'background' = 'await',
): Promise<void> {
  checkFrequency(context, user.emailChangeSentAt);
  await checkMailLimit(context);
  const currentEmail = user.email ?? '';
  const secure = context.settings.secureEmailChange && currentEmail !== '';
  const tokenNew = newOneTimeToken(pkce);
  const tokenCurrent = newOneTimeToken(pkce);
  const messages = [
    emailChangeMail({
      to: newEmail,
      newEmail,
      otp: tokenNew.otp,
      link: actionLink(context, tokenNew.link, 'email_change', redirectTo),
    }),
  ];
  if (secure) {
    const link = actionLink(context, tokenCurrent.link, 'email_change', redirectTo);
    messages.push(emailChangeMail({ to: currentEmail, newEmail, otp: tokenCurrent.otp, link }));
  }

  const pending = { emailChange: newEmail, emailChangeSentAt: new Date(), emailChangeConfirmStatus: 0 };
  await context.dataSource.transaction(async (manager) => {
    await manager.update(AuthUserRecord, { id: user.id }, pending);
    await manager.delete(AuthOneTimeTokenRecord, { userId: user.id, tokenType: In(EMAIL_CHANGE_TOKENS) });
    await storeOneTimeToken(manager, user, 'email_change_token_new', tokenNew, newEmail);
    if (secure) await storeOneTimeToken(manager, user, 'email_change_token_current', tokenCurrent, currentEmail);
    await recordFlow(manager, user, 'email_change', pkce);
  });
  Object.assign(user, pending);
  const deliver = async (): Promise<void> => {
    try {
      for (const message of messages) await context.mailer.send(message);
    } catch (error) {
      // A link that was never delivered must not stay usable, nor hold back a retry as "too frequent".
      await context.dataSource.transaction(async (manager) => {
        await manager.delete(AuthOneTimeTokenRecord, { userId: user.id, tokenType: In(EMAIL_CHANGE_TOKENS) });
        await manager.update(
          AuthUserRecord,
          { id: user.id, emailChange: newEmail },
          { emailChange: null, emailChangeSentAt: null, emailChangeConfirmStatus: 0 },
        );
      });
      throw new ApiError(500, 'unexpected_failure', 'Error sending email change email', undefined, error);
    }
  };
  // `/resend` answers anyone about any address: it must not wait for (nor report) delivery. A
  // signed-in change does, as nothing is revealed to the account's own session.
  if (delivery === 'await') {
    await deliver();
    return;
  }
  deliver().catch((error: unknown) => {
    context.log.error({ err: error, to: newEmail }, 'could not send an email change mail');
  });
}
