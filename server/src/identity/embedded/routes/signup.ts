import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EntityManager } from 'typeorm';
import { z } from 'zod';
import { DEFAULT_ROLE } from '../context.js';
import { AuthUserRecord } from '../entities.js';
import { unprocessable, validationFailed } from '../errors.js';
import { sendConfirmation } from '../emails.js';
import { readPkce } from '../flow-state.js';
import { checkPasswordStrength, hashPassword } from '../passwords.js';
import { redirectTarget } from '../redirects.js';
import { anonymousDisabled, readBody, requestAud } from '../request.js';
import type { RouteCall } from '../route.js';
import { metadata, pkceFields, text } from '../schemas.js';
import { issueSession } from '../sessions.js';
import {
  confirmEmail,
  createEmailIdentity,
  findUserByEmail,
  isEmailTaken,
  loadUserJson,
  newUser,
  phoneDisabled,
  validateEmail,
} from '../users.js';

const signupBody = z.object({ email: text, phone: text, password: text, data: metadata, ...pkceFields });

/**
 * The User object Supabase Auth returns for an already-confirmed address when confirmation is on:
 * a fresh id and no identities, so that the answer does not reveal that the account exists.
 */
function disguisedUser(email: string, aud: string, data: Record<string, unknown>): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    aud,
    role: '',
    email,
    phone: '',
    confirmation_sent_at: now,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: data,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}

/** Creates a user with its email identity, from a sign-up. */
async function createUser(
  manager: EntityManager,
  input: { email: string; aud: string; encryptedPassword: string; data: Record<string, unknown> },
): Promise<AuthUserRecord> {
  const user = newUser({
    email: input.email,
    aud: input.aud,
    role: DEFAULT_ROLE,
    encryptedPassword: input.encryptedPassword,
    userMetadata: input.data,
    appMetadata: { provider: 'email', providers: ['email'] },
  });
  await manager.save(AuthUserRecord, user);
  await createEmailIdentity(manager, user, input.data);
  return user;
}

/** `POST /signup` (contract §2.1). */
export async function signup(
  request: FastifyRequest,
  _reply: FastifyReply,
  { context, client }: RouteCall,
): Promise<unknown> {
  const { settings } = context;
  const body = readBody(request, signupBody);
  if (body.email === '' && body.phone === '') throw anonymousDisabled();
  if (settings.disableSignup) throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
  if (body.password === '') throw validationFailed('Signup requires a valid password');
  checkPasswordStrength(body.password, settings.passwordMinLength);
  if (body.email !== '' && body.phone !== '') {
    throw validationFailed('Only an email address or phone number should be provided on signup.');
  }
  if (body.email === '') throw phoneDisabled('signups');
  const pkce = readPkce(body);
  const email = validateEmail(body.email);
  const aud = requestAud(request, context);
  const data = body.data ?? {};
  const redirectTo = redirectTarget(request, settings);
  // Hashing before the lookup makes known and unknown addresses answer in the same time.
  const encryptedPassword = await hashPassword(body.password);

  const existing = await findUserByEmail(context.dataSource.manager, email);
  // Supabase Auth confirms an unconfirmed address and signs in here when autoconfirm is on,
  // without checking the password: whoever signed up first would lose the account to whoever
  // signs up again (say, after autoconfirm was switched on). We answer as for a confirmed one.
  if (existing && (existing.emailConfirmedAt || settings.autoconfirm)) {
    if (settings.autoconfirm) throw unprocessable('user_already_exists', 'User already registered');
    return disguisedUser(email, aud, data);
  }

  const signup = { email, aud, encryptedPassword, data };
  try {
    if (settings.autoconfirm) {
      return await context.dataSource.transaction(async (manager) => {
        const user = await createUser(manager, signup);
        await confirmEmail(manager, user);
        return issueSession(context, manager, user.id, 'password', client);
      });
    }
    const user = existing ?? (await context.dataSource.transaction((manager) => createUser(manager, signup)));
    await sendConfirmation(context, user, redirectTo, pkce);
    return await loadUserJson(context.dataSource.manager, user);
  } catch (error) {
    // Another sign-up for the same address won the race to insert it: answer as for a duplicate.
    if (!isEmailTaken(error)) throw error;
    if (settings.autoconfirm) throw unprocessable('user_already_exists', 'User already registered');
    return disguisedUser(email, aud, data);
  }
}
