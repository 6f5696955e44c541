import type { FastifyRequest } from 'fastify';
import type { EntityManager } from 'typeorm';
import { In, LessThan } from 'typeorm';
import { AuthSessionRecord } from './entities.js';
import type { AuthUserRecord } from './entities.js';
import { ApiError, forbidden, unprocessable } from './errors.js';
import { AuthChallengeRecord, AuthFactorRecord } from './factor-entities.js';
import { isUuid } from '../../rules/uuid.js';

/** The `amr` method a verified TOTP code adds to a session. */
export const TOTP_METHOD = 'totp';

/** Supabase Auth's `loadFactor`: the factor named in the path, owned by `user`. */
export async function loadOwnedFactor(
  request: FastifyRequest,
  manager: EntityManager,
  user: AuthUserRecord,
): Promise<AuthFactorRecord> {
  const { factorId } = request.params as { factorId: string };
  if (!isUuid(factorId)) throw new ApiError(404, 'validation_failed', 'factor_id must be an UUID');
  const factor = await manager.findOneBy(AuthFactorRecord, { id: factorId.toLowerCase(), userId: user.id });
  if (!factor) throw new ApiError(404, 'mfa_factor_not_found', 'Factor not found');
  return factor;
}

/**
 * Deletes unverified factors older than `expirySeconds` that were never challenged, as Supabase
 * Auth does before each enrolment (an enrolment abandoned before its QR code was scanned).
 */
export async function deleteExpiredFactors(
  manager: EntityManager,
  userId: string,
  expirySeconds: number,
): Promise<void> {
  const stale = await manager.find(AuthFactorRecord, {
    where: { userId, status: 'unverified', createdAt: LessThan(new Date(Date.now() - expirySeconds * 1000)) },
  });
  if (stale.length === 0) return;
  const challenged = await manager.find(AuthChallengeRecord, { where: { factorId: In(stale.map((f) => f.id)) } });
  const ids = stale.map((factor) => factor.id).filter((id) => !challenged.some((c) => c.factorId === id));
  if (ids.length > 0) await manager.delete(AuthFactorRecord, { id: In(ids) });
}

/** How long an unverified, never-challenged factor is kept before an enrolment deletes it. */
const FACTOR_EXPIRY_S = 300;

/**
 * Before any factor is enrolled (TOTP or WebAuthn): drops abandoned enrolments, then refuses a
 * friendly name already used (`null`: no name to check), too many factors, or a session below aal2
 * when a verified factor exists, in Supabase Auth's words.
 */
export async function checkEnrollment(
  manager: EntityManager,
  userId: string,
  friendlyName: string | null,
  aal: string,
  limits: { maxEnrolledFactors: number; maxVerifiedFactors: number },
): Promise<void> {
  await deleteExpiredFactors(manager, userId, FACTOR_EXPIRY_S);
  const factors = await manager.findBy(AuthFactorRecord, { userId });
  if (friendlyName !== null && factors.some((factor) => factor.friendlyName === friendlyName)) {
    throw unprocessable(
      'mfa_factor_name_conflict',
      `A factor with the friendly name "${friendlyName}" for this user already exists`,
    );
  }
  const verified = factors.filter((factor) => factor.status === 'verified').length;
  if (factors.length >= limits.maxEnrolledFactors || verified >= limits.maxVerifiedFactors) {
    throw unprocessable(
      'too_many_enrolled_mfa_factors',
      'Maximum number of verified factors reached, unenroll to continue',
    );
  }
  if (verified > 0 && aal !== 'aal2') throw forbidden('insufficient_aal', 'AAL2 required to enroll a new factor');
}

/**
 * Lowers the sessions a factor raised back to aal1 and takes its method out of their `amr`, after
 * the factor is removed (Supabase Auth's `DowngradeSessionsToAAL1`).
 */
export async function downgradeSessions(manager: EntityManager, factor: AuthFactorRecord): Promise<void> {
  const sessions = await manager.findBy(AuthSessionRecord, { userId: factor.userId, factorId: factor.id });
  for (const session of sessions) {
    await manager.update(
      AuthSessionRecord,
      { id: session.id },
      {
        aal: 'aal1',
        factorId: null,
        amr: session.amr.filter(
          (entry) =>
            entry.method !== (factor.factorType === 'webauthn' ? 'webauthn' : TOTP_METHOD) &&
            entry.method !== 'recovery_code',
        ),
        updatedAt: new Date(),
      },
    );
  }
}
