import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { IsNull, Not } from 'typeorm';
import { z } from 'zod';
import { AuthSessionRecord } from '../entities.js';
import type { AmrEntry } from '../entities.js';
import { ApiError, badRequest, forbidden, tooManyRequests, unprocessable, validationFailed } from '../errors.js';
import { AuthChallengeRecord, AuthFactorRecord } from '../factor-entities.js';
import { TOTP_METHOD, checkEnrollment, downgradeSessions, loadOwnedFactor } from '../factors.js';
import { LOCKED, SECRET_ATTEMPTS_WINDOW_S, giveBackAttempt, takeAttempt } from '../rate-limits.js';
import { readBody } from '../request.js';
import type { UserCall } from '../route.js';
import { text } from '../schemas.js';
import { reissueSession } from '../sessions.js';
import type { AccessTokenResponse } from '../sessions.js';
import { acceptedStep, newTotpSecret, qrCodeSvg, totpUri } from '../totp.js';
import { isUuid } from '../../../rules/uuid.js';
import { requireReauthentication } from './reauthenticate.js';
import { challengeWebAuthnFactor, enrollWebAuthnFactor, verifyWebAuthnFactor } from './webauthn-factors.js';

const enrollBody = z.object({ factor_type: text, friendly_name: text, issuer: text });
const verifyBody = z.object({ challenge_id: text, code: text });
const unenrollBody = z.object({ current_password: text, nonce: text });

const lockedMinutes = Math.round(SECRET_ATTEMPTS_WINDOW_S / 60);

/** Supabase Auth keeps an unverified, never challenged factor this long (GOTRUE_MFA_FACTOR_EXPIRY_DURATION). */

function requireSession({ auth }: UserCall): AuthSessionRecord {
  if (!auth.session) {
    throw new ApiError(
      500,
      'unexpected_failure',
      'A valid session and a registered user are required to enroll a factor',
    );
  }
  return auth.session;
}

function rejectOtherTypes(factorType: string): void {
  if (factorType === 'phone') throw unprocessable('mfa_phone_enroll_disabled', 'MFA enroll is disabled for Phone');
  if (factorType !== 'totp') throw validationFailed('factor_type needs to be totp, phone, or webauthn');
}

/** `POST /factors`: enrolls a TOTP factor and answers its secret, URI and QR code (shown once). */
export async function enrollFactor(request: FastifyRequest, _reply: FastifyReply, call: UserCall): Promise<unknown> {
  const { context, auth } = call;
  const { mfa } = context.settings;
  const session = requireSession(call);
  if (auth.user.isAnonymous) throw forbidden('no_authorization', 'Anonymous user not allowed to perform these actions');
  const body = readBody(request, enrollBody);
  if (body.factor_type === 'webauthn') return enrollWebAuthnFactor(call, session, body.friendly_name);
  rejectOtherTypes(body.factor_type);
  if (!mfa.totpEnrollEnabled) throw unprocessable('mfa_totp_enroll_disabled', 'MFA enroll is disabled for TOTP');
  const issuer = body.issuer === '' ? new URL(context.settings.siteUrl).host : body.issuer;
  const secret = await newTotpSecret();
  const uri = await totpUri(issuer, auth.user.email ?? '', secret);
  const qrCode = await qrCodeSvg(uri);

  const factor = await context.dataSource.transaction(async (manager) => {
    await checkEnrollment(manager, auth.user.id, body.friendly_name, session.aal, mfa);
    const now = new Date();
    const id = randomUUID();
    const record = manager.create(AuthFactorRecord, {
      id,
      userId: auth.user.id,
      friendlyName: body.friendly_name,
      factorType: 'totp',
      status: 'unverified',
      secret: context.factorSecrets.encrypt(id, secret),
      lastUsedStep: null,
      lastChallengedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    await manager.save(AuthFactorRecord, record);
    return record;
  });
  return {
    id: factor.id,
    type: 'totp',
    friendly_name: factor.friendlyName,
    totp: { qr_code: qrCode, secret, uri },
  };
}

/** `POST /factors/:factorId/challenge`: a challenge that a code from the same address may answer. */
export async function challengeFactor(
  request: FastifyRequest,
  _reply: FastifyReply,
  { context, auth, client }: UserCall,
): Promise<unknown> {
  const { manager } = context.dataSource;
  const factor = await loadOwnedFactor(request, manager, auth.user);
  if (factor.factorType === 'webauthn') return challengeWebAuthnFactor(request, { context, auth, client }, factor);
  if (!context.settings.mfa.totpVerifyEnabled) {
    throw unprocessable('mfa_totp_verify_disabled', 'MFA verification is disabled for TOTP');
  }
  const now = new Date();
  const challenge = manager.create(AuthChallengeRecord, {
    id: randomUUID(),
    factorId: factor.id,
    ipAddress: client.ip,
    verifiedAt: null,
    createdAt: now,
  });
  await context.dataSource.transaction(async (tx) => {
    await tx.save(AuthChallengeRecord, challenge);
    await tx.update(AuthFactorRecord, { id: factor.id }, { lastChallengedAt: now });
  });
  const expiresAt = Math.floor(now.getTime() / 1000) + context.settings.mfa.challengeExpiry;
  return { id: challenge.id, type: factor.factorType, expires_at: expiresAt };
}

/**
 * `POST /factors/:factorId/verify`: a right code for a live challenge verifies the factor, raises
 * the caller's session to aal2 (`amr` gains `totp`) and answers a new token pair. The code's time
 * step is recorded, so the same code (or an older one) is refused afterwards.
 */
export async function verifyFactor(request: FastifyRequest, _reply: FastifyReply, call: UserCall): Promise<unknown> {
  const { context, auth, client } = call;
  const session = requireSession(call);
  const { manager } = context.dataSource;
  const factor = await loadOwnedFactor(request, manager, auth.user);
  if (factor.factorType === 'webauthn') return verifyWebAuthnFactor(request, call, session, factor);
  const body = readBody(request, verifyBody);
  if (body.code === '') throw validationFailed('Code needs to be non-empty');
  if (!context.settings.mfa.totpVerifyEnabled) {
    throw unprocessable('mfa_totp_verify_disabled', 'MFA verification is disabled for TOTP');
  }
  if (!isUuid(body.challenge_id)) throw badRequest('bad_json', 'Could not parse request body as JSON: challenge_id');
  const challenge = await manager.findOneBy(AuthChallengeRecord, {
    id: body.challenge_id.toLowerCase(),
    factorId: factor.id,
  });
  if (!challenge) {
    throw unprocessable('mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
  }
  if (challenge.verifiedAt !== null || challenge.ipAddress !== client.ip) {
    throw unprocessable('mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
  }
  if (Date.now() > challenge.createdAt.getTime() + context.settings.mfa.challengeExpiry * 1000) {
    await manager.delete(AuthChallengeRecord, { id: challenge.id });
    throw unprocessable(
      'mfa_challenge_expired',
      `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
    );
  }
  // Tries are counted where the secret lives, per factor and per account, before the code is
  // compared and whatever the address: a challenge per address does not buy more guesses.
  const { factorCodes, accountSecrets } = context.limits;
  if (!(await takeAttempt(factorCodes, factor.id))) {
    throw tooManyRequests(
      'mfa_factor_locked',
      `Too many wrong codes for this factor: it is locked for up to ${lockedMinutes} minutes.`,
      LOCKED,
    );
  }
  if (!(await takeAttempt(accountSecrets, auth.user.id))) {
    await giveBackAttempt(factorCodes, factor.id);
    throw tooManyRequests(
      'mfa_factor_locked',
      `Too many wrong codes for this account: its factors are locked for up to ${lockedMinutes} minutes.`,
      LOCKED,
    );
  }
  const secret = context.factorSecrets.decrypt(factor.id, factor.secret);
  const step = await acceptedStep(secret, body.code, factor.lastUsedStep);
  const invalid = (): ApiError => unprocessable('mfa_verification_failed', 'Invalid TOTP code entered');
  if (step === undefined) throw invalid();

  const outcome = await context.dataSource.transaction(async (tx): Promise<AccessTokenResponse | undefined> => {
    // Only one request can move the factor past this step: a code raced in twice wins once.
    const stepQuery = tx
      .createQueryBuilder()
      .update(AuthFactorRecord)
      .set({ lastUsedStep: step, status: 'verified', updatedAt: new Date() })
      .where('id = :id', { id: factor.id })
      .andWhere('(last_used_step IS NULL OR last_used_step < :step)', { step });
    if ((await stepQuery.execute()).affected === 0) return undefined;
    const used = await tx.update(
      AuthChallengeRecord,
      { id: challenge.id, verifiedAt: IsNull() },
      { verifiedAt: new Date() },
    );
    if (used.affected === 0) return undefined;
    const current = await tx.findOneBy(AuthSessionRecord, { id: session.id });
    if (!current) throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
    const timestamp = Math.floor(Date.now() / 1000);
    const amr: AmrEntry[] = [
      ...current.amr.filter((entry) => entry.method !== TOTP_METHOD),
      { method: TOTP_METHOD, timestamp },
    ];
    Object.assign(current, { aal: 'aal2', amr, factorId: factor.id, updatedAt: new Date() });
    await tx.update(
      AuthSessionRecord,
      { id: current.id },
      { aal: 'aal2', amr, factorId: factor.id, updatedAt: current.updatedAt },
    );
    // As Supabase Auth: the member's other aal1 sessions end, and abandoned enrolments go.
    await tx.delete(AuthSessionRecord, { userId: auth.user.id, aal: 'aal1', id: Not(current.id) });
    await tx.delete(AuthFactorRecord, { userId: auth.user.id, status: 'unverified', factorType: factor.factorType });
    return reissueSession(context, tx, auth.user, current);
  });
  if (!outcome) throw invalid();
  await giveBackAttempt(factorCodes, factor.id);
  await giveBackAttempt(accountSecrets, auth.user.id);
  return outcome;
}

/**
 * `DELETE /factors/:factorId`: removes a factor; a verified one only from an aal2 session that
 * re-authenticated (`current_password` or `nonce` in the body, or a recent sign-in or code).
 */
export async function unenrollFactor(request: FastifyRequest, _reply: FastifyReply, call: UserCall): Promise<unknown> {
  const { context, auth } = call;
  const session = requireSession(call);
  const factor = await loadOwnedFactor(request, context.dataSource.manager, auth.user);
  if (factor.status === 'verified' && session.aal !== 'aal2') {
    throw unprocessable('insufficient_aal', 'AAL2 required to unenroll verified factor');
  }
  if (factor.status === 'verified') {
    const body = readBody(request, unenrollBody);
    await requireReauthentication(
      context,
      auth,
      { currentPassword: body.current_password, nonce: body.nonce },
      'factor',
    );
  }
  await context.dataSource.transaction(async (manager) => {
    await manager.delete(AuthFactorRecord, { id: factor.id });
    await downgradeSessions(manager, factor);
  });
  return { id: factor.id };
}
