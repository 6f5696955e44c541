import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { IdentityContext } from '../context.js';
import { ApiError, INVALID_CREDENTIALS, badRequest, unprocessable, validationFailed } from '../errors.js';
import { checkPasswordStrength, hashPassword, needsRehash, verifyDecoy, verifyPassword } from '../passwords.js';
import { queryValue, readBody } from '../request.js';
import type { RouteCall } from '../route.js';
import { text } from '../schemas.js';
import type { ClientInfo } from '../sessions.js';
import { issueSession, refreshSession } from '../sessions.js';
import { findUserByEmail, isBanned } from '../users.js';
import { pkceBody, pkceGrant } from './pkce.js';

const passwordBody = z.object({ email: text, phone: text, password: text });
const refreshBody = z.object({ refresh_token: text });

const invalidCredentials = (): ApiError => badRequest('invalid_credentials', INVALID_CREDENTIALS);

/** The password grant (contract §2.2): one answer for a missing account and a wrong password. */
async function passwordGrant(context: IdentityContext, body: z.infer<typeof passwordBody>, client: ClientInfo) {
  if (body.email !== '' && body.phone !== '') {
    throw validationFailed('Only an email address or phone number should be provided on login.');
  }
  if (body.email === '' && body.phone !== '')
    throw unprocessable('phone_provider_disabled', 'Phone logins are disabled');
  if (body.email === '') throw validationFailed('missing email or phone');

  const user = await findUserByEmail(context.dataSource.manager, body.email.trim());
  if (!user?.encryptedPassword) {
    await verifyDecoy(body.password);
    throw invalidCredentials();
  }
  if (isBanned(user)) throw badRequest('user_banned', 'User is banned');
  if (!(await verifyPassword(user.encryptedPassword, body.password))) throw invalidCredentials();
  if (!user.emailConfirmedAt) throw badRequest('email_not_confirmed', 'Email not confirmed');

  let weakPassword: { message: string; reasons: string[] } | undefined;
  try {
    checkPasswordStrength(body.password, context.settings.passwordMinLength);
  } catch (error) {
    if (error instanceof ApiError && error.reasons) weakPassword = { message: error.message, reasons: error.reasons };
  }
  // Hashes imported from Supabase (bcrypt) are upgraded to argon2id once the password is known.
  const rehash = needsRehash(user.encryptedPassword) ? await hashPassword(body.password) : undefined;
  const verifiedHash = user.encryptedPassword;
  const response = await context.dataSource.transaction((manager) =>
    issueSession(context, manager, user.id, 'password', client, { verifiedHash, rehash }),
  );
  return weakPassword ? { ...response, weak_password: weakPassword } : response;
}

/** `POST /token?grant_type=password|refresh_token|pkce` (contract §2.2, §2.3); all grants share one limit. */
export async function token(
  request: FastifyRequest,
  _reply: FastifyReply,
  { context, client }: RouteCall,
): Promise<unknown> {
  const grantType = queryValue(request, 'grant_type');
  if (grantType === 'pkce') return pkceGrant(context, readBody(request, pkceBody), client);
  if (grantType !== 'password' && grantType !== 'refresh_token') {
    throw badRequest('invalid_credentials', 'unsupported_grant_type');
  }
  if (grantType === 'password') return passwordGrant(context, readBody(request, passwordBody), client);
  return refreshSession(context, readBody(request, refreshBody).refresh_token, client);
}
