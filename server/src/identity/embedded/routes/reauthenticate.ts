import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IdentityContext } from '../context.js';
import { AuthOneTimeTokenRecord } from '../entities.js';
import { badRequest, unprocessable } from '../errors.js';
import { sendReauthentication } from '../emails.js';
import type { Authenticated } from '../request.js';
import type { UserCall } from '../route.js';
import { findCodeToken } from './verify.js';

/** A session younger than this may change its password without a nonce, as in Supabase Auth. */
const RECENT_SIGN_IN_MS = 24 * 60 * 60 * 1000;
const INVALID_NONCE = 'Nonce has expired or is invalid';

/** `GET /reauthenticate` (signed in): mails the caller a nonce for a password change. */
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

/**
 * With secure password change on (AUTH_SECURE_PASSWORD_CHANGE), a password change from a session
 * older than a day needs the nonce `GET /reauthenticate` mailed; it works once, within AUTH_OTP_EXP,
 * and burns after a handful of wrong tries like every mailed code.
 */
export async function checkReauthentication(
  context: IdentityContext,
  auth: Authenticated,
  nonce: string,
): Promise<void> {
  const { session, user } = auth;
  if (session && session.createdAt.getTime() + RECENT_SIGN_IN_MS > Date.now()) return;
  if (nonce === '') throw badRequest('reauthentication_needed', 'Password update requires reauthentication');
  const invalid = () => unprocessable('reauthentication_not_valid', INVALID_NONCE);
  const token = await findCodeToken(context, user.email ?? '', nonce, ['reauthentication_token']);
  if (token?.userId !== user.id) throw invalid();
  if (token.createdAt.getTime() + context.settings.otpExp * 1000 < Date.now()) throw invalid();
  const spent = await context.dataSource.manager.delete(AuthOneTimeTokenRecord, { id: token.id });
  if (spent.affected !== 1) throw invalid();
}
