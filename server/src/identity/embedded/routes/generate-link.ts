import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DEFAULT_ROLE } from '../context.js';
import { AuthUserRecord } from '../entities.js';
import type { OneTimeTokenType } from '../entities.js';
import { ApiError, DUPLICATE_EMAIL, unprocessable, validationFailed } from '../errors.js';
import { actionLink, newOneTimeToken, storeOneTimeToken } from '../emails.js';
import { checkPasswordStrength, generatedPassword, hashPassword } from '../passwords.js';
import { isRedirectAllowed, redirectTarget } from '../redirects.js';
import { adminRequestAud, readBody } from '../request.js';
import type { RouteCall } from '../route.js';
import { metadata, text } from '../schemas.js';
import {
  createEmailIdentity,
  findUserByEmail,
  loadUserJson,
  lockUser,
  mergeMetadata,
  newUser,
  validateEmail,
} from '../users.js';

const linkBody = z.object({
  type: text,
  email: text,
  new_email: text,
  password: text,
  data: metadata,
  redirect_to: text,
});

const LINK_TYPES = ['signup', 'invite', 'magiclink', 'recovery', 'email_change_current', 'email_change_new'];

/**
 * `POST /admin/generate_link` (contract §2.8): makes the link and code a message would carry,
 * without sending anything, and answers the user with `action_link`, `email_otp` and `hashed_token`.
 */
export async function generateLink(
  request: FastifyRequest,
  _reply: FastifyReply,
  { context }: RouteCall,
): Promise<unknown> {
  const { settings, dataSource } = context;
  const body = readBody(request, linkBody);
  const email = validateEmail(body.email);
  const redirectTo = isRedirectAllowed(settings, body.redirect_to)
    ? body.redirect_to
    : redirectTarget(request, settings);
  let type = body.type;
  if (!LINK_TYPES.includes(type)) {
    throw validationFailed(`Invalid email action link type requested: ${type}`);
  }
  const existing = await findUserByEmail(dataSource.manager, email);
  if (!existing) {
    if (type === 'magiclink') type = 'signup';
    if (type === 'recovery' || type.startsWith('email_change')) {
      throw new ApiError(404, 'user_not_found', 'User with this email not found');
    }
  }
  if ((type === 'signup' || type === 'invite') && existing?.emailConfirmedAt) {
    throw unprocessable('email_exists', DUPLICATE_EMAIL);
  }
  if (type === 'email_change_current' && !settings.secureEmailChange) {
    throw validationFailed('Enable secure email change to generate link for current email');
  }
  const newEmail = type.startsWith('email_change') ? validateEmail(body.new_email) : '';
  if (newEmail !== '') {
    const other = await findUserByEmail(dataSource.manager, newEmail);
    if (other && other.id !== existing?.id) throw unprocessable('email_exists', DUPLICATE_EMAIL);
  }
  let encryptedPassword: string | null = null;
  if (type === 'signup' && !existing) {
    const password = body.password || generatedPassword();
    if (body.password) checkPasswordStrength(password, settings.passwordMinLength);
    encryptedPassword = await hashPassword(password);
  }

  const token = newOneTimeToken();
  const target = type === 'email_change_new' ? newEmail : email;
  const now = new Date();
  const user = await dataSource.transaction(async (manager) => {
    // The row as it is now, not as it was read above: saving that copy could undo others' writes.
    let user = existing ? await lockUser(manager, existing.id) : null;
    if (existing && !user) throw new ApiError(404, 'user_not_found', 'User with this email not found');
    if (!user) {
      user = newUser({
        email,
        aud: adminRequestAud(request, context),
        role: DEFAULT_ROLE,
        encryptedPassword,
        userMetadata: body.data ?? {},
        appMetadata: { provider: 'email', providers: ['email'] },
      });
      await manager.save(AuthUserRecord, user);
      await createEmailIdentity(manager, user, body.data ?? {});
    } else if (type === 'signup' && body.data) {
      user.userMetadata = mergeMetadata(user.userMetadata, body.data);
    }
    let tokenType: OneTimeTokenType;
    if (type === 'signup' || type === 'invite') {
      tokenType = 'confirmation_token';
      user.confirmationSentAt = now;
      if (type === 'invite') user.invitedAt = now;
    } else if (type === 'magiclink' || type === 'recovery') {
      tokenType = 'recovery_token';
      user.recoverySentAt = now;
    } else {
      tokenType = type === 'email_change_current' ? 'email_change_token_current' : 'email_change_token_new';
      Object.assign(user, { emailChange: newEmail, emailChangeSentAt: now, emailChangeConfirmStatus: 0 });
    }
    user.updatedAt = now;
    await manager.save(AuthUserRecord, user);
    await storeOneTimeToken(manager, user, tokenType, token, target);
    return user;
  });

  const verificationType = type.startsWith('email_change') ? 'email_change' : type;
  return {
    ...(await loadUserJson(dataSource.manager, user)),
    action_link: actionLink(context, token.link, verificationType, redirectTo),
    email_otp: token.otp,
    hashed_token: token.link,
    verification_type: type,
    redirect_to: redirectTo,
  };
}
