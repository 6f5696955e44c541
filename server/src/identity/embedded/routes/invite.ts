import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DEFAULT_ROLE } from '../context.js';
import { DUPLICATE_EMAIL, unprocessable } from '../errors.js';
import { sendInvite } from '../emails.js';
import { redirectTarget } from '../redirects.js';
import { adminRequestAud, readBody } from '../request.js';
import type { RouteCall } from '../route.js';
import { metadata, text } from '../schemas.js';
import {
  createEmailIdentity,
  findUserByEmail,
  forgetUnprovenPassword,
  loadUserJson,
  newUser,
  saveUser,
  validateEmail,
} from '../users.js';

const inviteBody = z.object({ email: text, data: metadata });

/**
 * `POST /invite` (admin; supabase-js `auth.admin.inviteUserByEmail`): makes an account without a
 * password for the address (or reuses an unconfirmed one) and mails it an invitation link, which
 * confirms the address and signs the invitee in to choose a password. Answers the User
 * (`invited_at` set); a confirmed address is `422 email_exists`.
 */
export async function invite(request: FastifyRequest, _reply: FastifyReply, { context }: RouteCall): Promise<unknown> {
  const body = readBody(request, inviteBody);
  const email = validateEmail(body.email);
  const { dataSource } = context;
  let user = await findUserByEmail(dataSource.manager, email);
  if (user?.emailConfirmedAt) throw unprocessable('email_exists', DUPLICATE_EMAIL);
  if (!user) {
    const created = newUser({
      email,
      aud: adminRequestAud(request, context),
      role: DEFAULT_ROLE,
      encryptedPassword: null,
      userMetadata: body.data ?? {},
      appMetadata: { provider: 'email', providers: ['email'] },
    });
    await dataSource.transaction(async (manager) => {
      await saveUser(manager, created);
      await createEmailIdentity(manager, created);
    });
    user = created;
  } else {
    // The invitee chooses the password; one set by whoever made the unconfirmed account goes.
    await forgetUnprovenPassword(dataSource.manager, user);
  }
  await sendInvite(context, user, redirectTarget(request, context.settings));
  return loadUserJson(dataSource.manager, user);
}
