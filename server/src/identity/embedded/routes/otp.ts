import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DEFAULT_ROLE } from '../context.js';
import type { IdentityContext } from '../context.js';
import { AuthUserRecord } from '../entities.js';
import { badRequest, validationFailed } from '../errors.js';
import { mailQuietly, sendConfirmation, sendEmailChange, sendMagicLink } from '../emails.js';
import type { PkceChallenge } from '../flow-state.js';
import { readPkce } from '../flow-state.js';
import { redirectTarget } from '../redirects.js';
import { readBody, requestAud } from '../request.js';
import type { RouteCall } from '../route.js';
import { metadata, pkceFields, text } from '../schemas.js';
import {
  createEmailIdentity,
  findUserByEmail,
  forgetUnprovenPassword,
  isEmailTaken,
  newUser,
  validateEmail,
} from '../users.js';

const otpBody = z.object({
  email: text,
  phone: text,
  create_user: z.boolean().nullish(),
  data: metadata,
  channel: text,
  ...pkceFields,
});
const resendBody = z.object({ type: text, email: text, phone: text, ...pkceFields });

const phoneUnsupported = () => badRequest('phone_provider_disabled', 'Unsupported phone provider');

/** A user made by `/otp` for a new address: no password until they choose one. */
async function createOtpUser(
  context: IdentityContext,
  input: { email: string; aud: string; data: Record<string, unknown> },
): Promise<AuthUserRecord> {
  return context.dataSource.transaction(async (manager) => {
    const user = newUser({
      email: input.email,
      aud: input.aud,
      role: DEFAULT_ROLE,
      encryptedPassword: null,
      userMetadata: input.data,
      appMetadata: { provider: 'email', providers: ['email'] },
    });
    await manager.save(AuthUserRecord, user);
    await createEmailIdentity(manager, user, input.data);
    return user;
  });
}

/**
 * Mails a sign-in link and code to an address: a magic link to a confirmed account (or any, with
 * autoconfirm), else the sign-up confirmation, as Supabase Auth's MagicLink does. Unlike there, an
 * account made here stays unconfirmed until its link or code is used (which confirms it), so that
 * nobody can make a confirmed account for someone else's address.
 */
async function mailSignIn(
  context: IdentityContext,
  user: AuthUserRecord,
  redirectTo: string,
  pkce: PkceChallenge | null,
): Promise<void> {
  if (user.emailConfirmedAt || context.settings.autoconfirm) {
    await sendMagicLink(context, user, redirectTo, pkce);
    return;
  }
  // The link will confirm the address for whoever holds the mailbox: a password set by whoever
  // made the account must not come with it.
  await forgetUnprovenPassword(context.dataSource.manager, user);
  await sendConfirmation(context, user, redirectTo, pkce);
}

/**
 * `POST /otp`: signs in by email, with a link or the 6-digit code of the same message
 * (`/verify` type `magiclink` or `email`). `create_user` (default true) makes an account for a new
 * address. Unlike Supabase Auth, which answers `422 otp_disabled` for an unknown address when
 * `create_user` is false (or sign-ups are off), the answer is `200 {}` for every address, so that
 * it does not tell which ones have accounts.
 */
export async function otp(request: FastifyRequest, _reply: FastifyReply, { context }: RouteCall): Promise<unknown> {
  const body = readBody(request, otpBody);
  if (body.email !== '' && body.phone !== '') {
    throw validationFailed('Only an email address or phone number should be provided');
  }
  if (body.email !== '' && body.channel !== '') {
    throw validationFailed('Channel should only be specified with Phone OTP');
  }
  const pkce = readPkce(body);
  if (body.phone !== '') throw phoneUnsupported();
  if (body.email === '') throw validationFailed('One of email or phone must be set');
  const email = validateEmail(body.email);
  const aud = requestAud(request, context);
  const redirectTo = redirectTarget(request, context.settings);

  let user = await findUserByEmail(context.dataSource.manager, email);
  if (!user) {
    if (body.create_user === false || context.settings.disableSignup) return {};
    try {
      user = await createOtpUser(context, { email, aud, data: body.data ?? {} });
    } catch (error) {
      // Another request made the account meanwhile: mail that one.
      if (!isEmailTaken(error)) throw error;
      user = await findUserByEmail(context.dataSource.manager, email);
      if (!user) throw error;
    }
  }
  const known = user;
  await mailQuietly(context, () => mailSignIn(context, known, redirectTo, pkce));
  return {};
}

/**
 * `POST /resend`: mails the sign-up confirmation or the pending email change again, under the
 * same frequency limit as the first message. `200 {}` whether or not there was anything to send,
 * and whether or not a limit held the mail back (see `mailQuietly`).
 */
export async function resend(request: FastifyRequest, _reply: FastifyReply, { context }: RouteCall): Promise<unknown> {
  const body = readBody(request, resendBody);
  if (body.type === 'sms' || body.type === 'phone_change') throw phoneUnsupported();
  if (body.type !== 'signup' && body.type !== 'email_change') {
    throw validationFailed('Missing one of these types: signup, email_change, sms, phone_change');
  }
  const pkce = readPkce(body);
  if (body.email === '' && body.type === 'signup') throw validationFailed('Type provided requires an email address');
  if (body.email !== '' && body.phone !== '') {
    throw validationFailed('Only an email address or phone number should be provided.');
  }
  if (body.phone !== '') throw phoneUnsupported();
  if (body.email === '') throw validationFailed('Missing email address or phone number');
  const email = validateEmail(body.email);
  const redirectTo = redirectTarget(request, context.settings);

  const user = await findUserByEmail(context.dataSource.manager, email);
  if (!user) return {};
  await mailQuietly(context, async () => {
    if (body.type === 'signup') {
      if (!user.emailConfirmedAt) await sendConfirmation(context, user, redirectTo, pkce);
    } else if (user.emailChange) {
      await sendEmailChange(context, user, user.emailChange, redirectTo, pkce, 'background');
    }
  });
  return {};
}
