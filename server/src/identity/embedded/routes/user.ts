import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AuthUserRecord } from '../entities.js';
import { AuthFactorRecord } from '../factor-entities.js';
import { ApiError, DUPLICATE_EMAIL, forbidden, unprocessable, validationFailed } from '../errors.js';
import { sendEmailChange } from '../emails.js';
import { readPkce } from '../flow-state.js';
import { checkPasswordStrength, hashPassword, verifyPassword } from '../passwords.js';
import { redirectTarget } from '../redirects.js';
import { notAdmin, queryValue, readBody, requestAud } from '../request.js';
import type { UserCall } from '../route.js';
import { requireReauthentication, spendEmailLink } from './reauthenticate.js';
import { metadata, pkceFields, text } from '../schemas.js';
import {
  clearPendingTokens,
  findUserByEmail,
  loadUserJson,
  lockUser,
  logoutSessions,
  mergeMetadata,
  phoneDisabled,
  validateEmail,
} from '../users.js';

const updateBody = z.object({
  email: text,
  phone: text,
  password: z.string().nullish(),
  current_password: text,
  nonce: text,
  data: metadata,
  app_metadata: metadata,
  ...pkceFields,
});

/** `GET /user` (contract §2.4). */
export async function getUser(
  request: FastifyRequest,
  _reply: FastifyReply,
  { context, auth }: UserCall,
): Promise<unknown> {
  const { claims, user } = auth;
  const audience = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
  if (audience !== requestAud(request, context)) {
    throw validationFailed("Token audience doesn't match request audience");
  }
  return loadUserJson(context.dataSource.manager, user);
}

/** `PUT /user` (contract §2.4). */
export async function updateUser(
  request: FastifyRequest,
  _reply: FastifyReply,
  { context, auth }: UserCall,
): Promise<unknown> {
  const { settings } = context;
  const { user, session } = auth;
  const body = readBody(request, updateBody);
  const email = body.email === '' ? '' : validateEmail(body.email);
  if (body.phone !== '') throw phoneDisabled('signups');
  const password = body.password ?? undefined;
  if (password !== undefined) checkPasswordStrength(password, settings.passwordMinLength);
  if (body.app_metadata) throw notAdmin();
  const pkce = readPkce(body);

  const changesEmail = email !== '' && email !== user.email;
  if (changesEmail) {
    const other = await findUserByEmail(context.dataSource.manager, email);
    if (other && other.id !== user.id) throw unprocessable('email_exists', DUPLICATE_EMAIL);
  }
  // As Supabase Auth: with a verified factor, only a session that has passed it (aal2) may change
  // the email or the password; a stolen password alone must not take the account over.
  if ((changesEmail || password !== undefined) && session?.aal !== 'aal2') {
    const verified = await context.dataSource.manager.countBy(AuthFactorRecord, {
      userId: user.id,
      status: 'verified',
    });
    if (verified > 0) {
      throw new ApiError(
        401,
        'insufficient_aal',
        'AAL2 session is required to update email or password when MFA is enabled.',
      );
    }
  }
  const proof = { currentPassword: body.current_password, nonce: body.nonce };
  const reauthenticated =
    password !== undefined || changesEmail
      ? await requireReauthentication(context, auth, proof, password !== undefined ? 'password' : 'email')
      : undefined;
  let encryptedPassword: string | undefined;
  if (password !== undefined) {
    if (user.encryptedPassword && (await verifyPassword(user.encryptedPassword, password))) {
      throw unprocessable('same_password', 'New password should be different from the old password.');
    }
    encryptedPassword = await hashPassword(password);
  }

  // The changes go to the row as it is now: the copy read before hashing may be stale.
  const updated = await context.dataSource.transaction(async (manager) => {
    const fresh = await lockUser(manager, user.id);
    if (!fresh) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
    if (encryptedPassword !== undefined) {
      // A session from an emailed link sets a password once; then it needs what any other does.
      if (reauthenticated === 'email_link' && session) await spendEmailLink(context, manager, session.id);
      fresh.encryptedPassword = encryptedPassword;
      await clearPendingTokens(manager, fresh);
      // A new password means the old one may be known to someone else: end every other session.
      await logoutSessions(manager, fresh.id, session ? { except: session.id } : { all: true });
    }
    if (body.data) fresh.userMetadata = mergeMetadata(fresh.userMetadata, body.data);
    fresh.updatedAt = new Date();
    await manager.save(AuthUserRecord, fresh);
    return fresh;
  });
  if (changesEmail) await sendEmailChange(context, updated, email, redirectTarget(request, settings), pkce);
  return loadUserJson(context.dataSource.manager, updated);
}

/** `POST /logout` (contract §2.7). */
export async function logout(
  request: FastifyRequest,
  reply: FastifyReply,
  { context, auth }: UserCall,
): Promise<unknown> {
  const { user, session } = auth;
  const scope = queryValue(request, 'scope');
  if (!['', 'global', 'local', 'others'].includes(scope)) {
    throw validationFailed(`Unsupported logout scope "${scope}"`);
  }
  await context.dataSource.transaction(async (manager) => {
    if (session && scope === 'local') await logoutSessions(manager, user.id, { only: session.id });
    else if (session && scope === 'others') await logoutSessions(manager, user.id, { except: session.id });
    else await logoutSessions(manager, user.id, { all: true });
  });
  return reply.code(204).send();
}
