import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EntityManager } from 'typeorm';
import { In } from 'typeorm';
import { z } from 'zod';
import type { IdentityContext } from '../context.js';
import { AuthOneTimeTokenRecord, AuthUserRecord } from '../entities.js';
import type { OneTimeTokenType } from '../entities.js';
import { ApiError, badRequest, forbidden, unprocessable, validationFailed } from '../errors.js';
import { codeDigest, EMAIL_CHANGE_TOKENS, mailAfterAnswer, sendRecovery } from '../emails.js';
import type { FlowMethod } from '../flow-state.entity.js';
import { PKCE_PREFIX, flowMethodFor, issueAuthCode, readPkce } from '../flow-state.js';
import { hasControlCharacters, redirectTarget } from '../redirects.js';
import { queryValue, readBody } from '../request.js';
import type { RouteCall } from '../route.js';
import { pkceFields, text } from '../schemas.js';
import type { AccessTokenResponse, ClientInfo } from '../sessions.js';
import { issueSession, sha256 } from '../sessions.js';
import {
  confirmEmail,
  findUserByEmail,
  isBanned,
  lockUser,
  saveUser,
  tokenTypesFor,
  updateEmailIdentity,
  validateEmail,
} from '../users.js';

const recoverBody = z.object({ email: text, ...pkceFields });
const verifyBody = z.object({ type: text, token: text, token_hash: text, email: text, phone: text, redirect_to: text });

/** With secure email change, the first of the two links answers this instead of a session. */
const SINGLE_CONFIRMATION = 'Confirmation link accepted. Please proceed to confirm link sent to the other email';
const LINK_EXPIRED = 'Email link is invalid or has expired';
const OTP_EXPIRED = 'Token has expired or is invalid';

type VerifyOutcome = { session: AccessTokenResponse } | { code: string } | { message: string };

function sentAtFor(user: AuthUserRecord, type: OneTimeTokenType): Date | null {
  if (type === 'confirmation_token') return user.confirmationSentAt;
  if (type === 'recovery_token') return user.recoverySentAt;
  return user.emailChangeSentAt;
}

/** Applies an email change once its link(s) are accepted (contract §2.4 and §2.6). */
async function applyEmailChange(
  context: IdentityContext,
  manager: EntityManager,
  user: AuthUserRecord,
  used: AuthOneTimeTokenRecord,
): Promise<boolean> {
  // Unlike Supabase Auth, both links are needed even with autoconfirm on: both addresses were
  // mailed, and the point of the second link is that whoever holds the session alone cannot move
  // the account to an address of their own.
  const doubleConfirm = context.settings.secureEmailChange && user.emailChangeConfirmStatus === 0;
  const others = await manager.countBy(AuthOneTimeTokenRecord, {
    userId: user.id,
    tokenType: In(EMAIL_CHANGE_TOKENS),
  });
  if (doubleConfirm && others > 1) {
    await manager.delete(AuthOneTimeTokenRecord, { id: used.id });
    user.emailChangeConfirmStatus = 1;
    await manager.update(AuthUserRecord, { id: user.id }, { emailChangeConfirmStatus: 1 });
    return false;
  }
  const newEmail = user.emailChange ?? used.relatesTo;
  Object.assign(user, { email: newEmail, emailChange: null, emailChangeSentAt: null, emailChangeConfirmStatus: 0 });
  user.updatedAt = new Date();
  // Someone else may have taken the address since the change was requested.
  await saveUser(manager, user);
  await manager.delete(AuthOneTimeTokenRecord, { userId: user.id, tokenType: In(EMAIL_CHANGE_TOKENS) });
  await updateEmailIdentity(manager, user, { email: newEmail, email_verified: true });
  if (!user.emailConfirmedAt) await confirmEmail(manager, user);
  return true;
}

/** Tries at one mailed code, right or wrong, before it stops working (one in 200,000 odds of a guess). */
export const MAX_CODE_ATTEMPTS = 5;

/**
 * The outstanding token of these types mailed to `email` whose code is `otp`, or null. Each try is
 * counted on the token's row before the code is compared, in one UPDATE that no concurrent try can
 * slip past: however many tries arrive at once, at most MAX_CODE_ATTEMPTS are compared, and after
 * that the code (and its link) is burnt, whichever server instance the tries reach.
 */
export async function findCodeToken(
  context: IdentityContext,
  email: string,
  otp: string,
  types: OneTimeTokenType[],
): Promise<AuthOneTimeTokenRecord | null> {
  const { manager } = context.dataSource;
  const digest = sha256(codeDigest(email, otp));
  const outstanding = await manager.findBy(AuthOneTimeTokenRecord, { relatesTo: email, tokenType: In(types) });
  let found: AuthOneTimeTokenRecord | null = null;
  for (const record of outstanding) {
    const counted = await manager
      .createQueryBuilder()
      .update(AuthOneTimeTokenRecord)
      .set({ attempts: () => 'attempts + 1' })
      .where('id = :id AND attempts < :max', { id: record.id, max: MAX_CODE_ATTEMPTS })
      .execute();
    // Tokens stored before codes had their own column hold the code's digest as their link token.
    if (counted.affected === 1 && (record.codeHash ?? record.tokenHash) === digest) found = record;
  }
  return found;
}

/**
 * Checks a link token (or address + code) and applies what it confirms: sign-up, recovery, or email
 * change. On success the user gets a new session signed in with `otp`, or, for the link of a PKCE
 * flow (`flow`), the code its client exchanges for one.
 */
async function verify(
  context: IdentityContext,
  input: { type: string; token: string; email: string; flow?: FlowMethod },
  client: ClientInfo,
): Promise<VerifyOutcome> {
  const types = tokenTypesFor(input.type);
  if (!types) throw validationFailed('Unsupported verification type');
  const byCode = input.email !== '';
  // One answer for a wrong, spent, burnt or expired code, as Supabase Auth gives.
  const invalid = (): ApiError => forbidden('otp_expired', byCode ? OTP_EXPIRED : LINK_EXPIRED);
  const typed = byCode ? await findCodeToken(context, input.email, input.token, types) : null;
  if (byCode && !typed) throw invalid();

  return context.dataSource.transaction(async (manager): Promise<VerifyOutcome> => {
    const record = typed
      ? await manager.findOneBy(AuthOneTimeTokenRecord, { id: typed.id })
      : await manager.findOneBy(AuthOneTimeTokenRecord, { tokenHash: sha256(input.token), tokenType: In(types) });
    if (!record) throw invalid();
    // A link is not counted (it cannot be guessed), but dies with its code.
    if (!typed && record.attempts >= MAX_CODE_ATTEMPTS) throw invalid();
    const user = await lockUser(manager, record.userId);
    if (!user) throw invalid();
    if (isBanned(user)) throw forbidden('user_banned', 'User is banned');
    const sentAt = sentAtFor(user, record.tokenType);
    if (!sentAt || sentAt.getTime() + context.settings.otpExp * 1000 < Date.now()) throw invalid();

    if (record.tokenType === 'confirmation_token') {
      await confirmEmail(manager, user);
    } else if (record.tokenType === 'recovery_token') {
      await manager.delete(AuthOneTimeTokenRecord, { id: record.id });
      if (!user.emailConfirmedAt) await confirmEmail(manager, user);
    } else if (!(await applyEmailChange(context, manager, user, record))) {
      return { message: SINGLE_CONFIRMATION };
    }
    if (input.flow === undefined) return { session: await issueSession(context, manager, user.id, 'otp', client) };
    const code = await issueAuthCode(manager, user.id, input.flow);
    if (code === null) {
      throw badRequest('flow_state_not_found', 'No associated flow state found. No valid flow state found for user.');
    }
    return { code };
  });
}

/** Encodes a redirect fragment with sorted keys, as Go's url.Values does. */
function fragment(values: Record<string, string>): string {
  return new URLSearchParams(Object.entries(values).sort(([a], [b]) => a.localeCompare(b))).toString();
}

/**
 * Answers 303 to `target` with `values` in the fragment; for a PKCE link, also in the query, where
 * supabase-js's PKCE flow looks for the code or the error, as Supabase Auth does.
 */
async function redirect(
  reply: FastifyReply,
  target: string,
  values: Record<string, string>,
  query?: Record<string, string>,
): Promise<void> {
  const url = new URL(target.split('#')[0] ?? target);
  for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value);
  const hash = fragment({ ...values, sb: '' });
  await reply.code(303).header('location', `${url.toString()}#${hash}`).send();
}

/** `GET /verify`: the emailed link. Answers with a 303 to `redirect_to`, tokens or error in the fragment. */
async function verifyLink(
  context: IdentityContext,
  request: FastifyRequest,
  reply: FastifyReply,
  client: ClientInfo,
): Promise<void> {
  const type = queryValue(request, 'type');
  const token = queryValue(request, 'token');
  if (type === '') throw validationFailed('Verify requires a verification type');
  if (token === '') throw validationFailed('Verify requires a token or a token hash');
  const pkce = token.startsWith(PKCE_PREFIX);
  const flow = pkce ? flowMethodFor(type) : undefined;
  if (pkce && flow === undefined) throw validationFailed(`unsupported authentication method "${type}"`);
  // Refused before the one-time token is spent: no redirect can carry CR/LF.
  if (hasControlCharacters(queryValue(request, 'redirect_to'))) {
    throw validationFailed('redirect_to must not contain control characters');
  }
  const target = redirectTarget(request, context.settings);
  try {
    const outcome = await verify(context, { type, token, email: '', ...(flow && { flow }) }, client);
    if ('message' in outcome) {
      await redirect(reply, target, { message: outcome.message }, pkce ? { message: outcome.message } : undefined);
      return;
    }
    if ('code' in outcome) {
      await redirect(reply, target, {}, { code: outcome.code });
      return;
    }
    const { session } = outcome;
    await redirect(reply, target, {
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      token_type: 'bearer',
      type,
    });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    const oauthError =
      error.status === 403 ? 'access_denied' : error.status === 401 ? 'unauthorized_client' : 'invalid_request';
    const values = { error: oauthError, error_code: error.code, error_description: error.message };
    await redirect(reply, target, values, pkce ? values : undefined);
  }
}

/** `POST /recover` (contract §2.5). */
export async function recover(request: FastifyRequest, _reply: FastifyReply, { context }: RouteCall): Promise<unknown> {
  const body = readBody(request, recoverBody);
  if (body.email === '') throw validationFailed('Password recovery requires an email');
  const email = validateEmail(body.email);
  const pkce = readPkce(body);
  const redirectTo = redirectTarget(request, context.settings);
  const user = await findUserByEmail(context.dataSource.manager, email);
  if (user) mailAfterAnswer(context, () => sendRecovery(context, user, redirectTo, pkce));
  return {};
}

/** `GET /verify` (contract §2.6): the emailed link. */
export async function verifyGet(
  request: FastifyRequest,
  reply: FastifyReply,
  { context, client }: RouteCall,
): Promise<void> {
  await verifyLink(context, request, reply, client);
}

/** `POST /verify` (contract §2.6): a link's token hash, or an address and its code. */
export async function verifyPost(
  request: FastifyRequest,
  _reply: FastifyReply,
  { context, client }: RouteCall,
): Promise<unknown> {
  const body = readBody(request, verifyBody);
  if (body.type === '') throw validationFailed('Verify requires a verification type');
  if ((body.token === '') === (body.token_hash === '')) {
    throw validationFailed('Verify requires either a token or a token hash');
  }
  let email = '';
  if (body.token !== '') {
    if (body.email === '' || body.phone !== '') {
      throw validationFailed('Only an email address or phone number should be provided on verify');
    }
    try {
      email = validateEmail(body.email);
    } catch {
      throw unprocessable('validation_failed', 'Invalid email format');
    }
  } else if (body.email !== '' || body.phone !== '' || body.redirect_to !== '') {
    throw validationFailed('Only the token_hash and type should be provided');
  }
  // A PKCE link's token hash verified by POST signs in at once, as in Supabase Auth.
  const token = email === '' ? body.token_hash : body.token;
  const outcome = await verify(context, { type: body.type, token, email }, client);
  if ('message' in outcome) return { msg: outcome.message, code: '200' };
  if ('code' in outcome) throw new Error('a verification without a flow answered a code');
  return outcome.session;
}
