import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash, randomInt, randomUUID } from 'node:crypto';
import { IsNull } from 'typeorm';
import { z } from 'zod';
import { ApiError, forbidden, tooManyRequests, unprocessable, validationFailed } from '../errors.js';
import { AuthFactorRecord, AuthRecoveryCodeRecord } from '../factor-entities.js';
import { LOCKED, SECRET_ATTEMPTS_WINDOW_S, giveBackAttempt, takeAttempt } from '../rate-limits.js';
import { readBody } from '../request.js';
import type { UserCall } from '../route.js';
import { text } from '../schemas.js';
import type { AccessTokenResponse } from '../sessions.js';
import { raiseSession } from '../webauthn.js';

/**
 * Recovery codes, an extension beyond Supabase Auth: ten single-use codes that stand in for the
 * member's second factor when its device is lost. Only their SHA-256 is stored (each code carries
 * 80 random bits, so a slow hash adds nothing); a new set replaces the old one.
 */

/** How many codes a set has. */
export const RECOVERY_CODE_COUNT = 10;
/** The `amr` method a recovery code adds to a session. */
export const RECOVERY_CODE_METHOD = 'recovery_code';
/** 32 letters and digits, without 0/O and 1/I: 16 of them carry 80 bits. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 16;

const verifyBody = z.object({ code: text });
const lockedMinutes = Math.round(SECRET_ATTEMPTS_WINDOW_S / 60);

/** A new code, shown as four groups of four (`ABCD-EFGH-JKLM-NPQR`). */
function newCode(): string {
  const chars = Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return chars.join('').replace(/(.{4})(?!$)/g, '$1-');
}

/** The stored form of a code as typed: case, spaces and dashes do not matter. */
export function hashRecoveryCode(code: string): string {
  const normalised = code.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return createHash('sha256').update(normalised).digest('hex');
}

/** The member's verified factor that a recovery code stands in for (the authenticator app first). */
async function verifiedFactor(call: UserCall): Promise<AuthFactorRecord> {
  const factors = await call.context.dataSource.manager.findBy(AuthFactorRecord, {
    userId: call.auth.user.id,
    status: 'verified',
  });
  const factor = factors.find((f) => f.factorType === 'totp') ?? factors[0];
  if (!factor) {
    throw unprocessable('mfa_factor_not_found', 'Recovery codes need two-factor sign-in to be on first');
  }
  return factor;
}

/**
 * `POST /factors/recovery` (extension): a new set of ten codes, answered once; the earlier set,
 * used or not, stops working. Needs an aal2 session of a member with a verified factor.
 */
export async function generateRecoveryCodes(
  _request: FastifyRequest,
  _reply: FastifyReply,
  call: UserCall,
): Promise<{ codes: string[] }> {
  const { context, auth } = call;
  await verifiedFactor(call);
  if (auth.session?.aal !== 'aal2') throw forbidden('insufficient_aal', 'AAL2 required to create recovery codes');
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  const now = new Date();
  await context.dataSource.transaction(async (tx) => {
    await tx.delete(AuthRecoveryCodeRecord, { userId: auth.user.id });
    await tx.insert(
      AuthRecoveryCodeRecord,
      codes.map((code) => ({
        id: randomUUID(),
        userId: auth.user.id,
        codeHash: hashRecoveryCode(code),
        usedAt: null,
        createdAt: now,
      })),
    );
  });
  return { codes };
}

/**
 * `POST /factors/recovery/verify` (extension): an unused code of the member raises the session to
 * aal2 as a verified factor code does, and is spent. Wrong codes count against the same limits as
 * wrong TOTP codes (per account, and per member's recovery codes), whatever the address.
 */
export async function verifyRecoveryCode(
  request: FastifyRequest,
  _reply: FastifyReply,
  call: UserCall,
): Promise<AccessTokenResponse> {
  const { context, auth } = call;
  const session = auth.session;
  if (!session) throw new ApiError(500, 'unexpected_failure', 'A valid session is required to use a recovery code');
  const body = readBody(request, verifyBody);
  if (body.code.trim() === '') throw validationFailed('Code needs to be non-empty');
  const factor = await verifiedFactor(call);
  const { factorCodes, accountSecrets } = context.limits;
  const codesKey = `recovery:${auth.user.id}`;
  if (!(await takeAttempt(factorCodes, codesKey))) {
    throw tooManyRequests(
      'mfa_factor_locked',
      `Too many wrong recovery codes: they are locked for up to ${lockedMinutes} minutes.`,
      LOCKED,
    );
  }
  if (!(await takeAttempt(accountSecrets, auth.user.id))) {
    await giveBackAttempt(factorCodes, codesKey);
    throw tooManyRequests(
      'mfa_factor_locked',
      `Too many wrong codes for this account: its factors are locked for up to ${lockedMinutes} minutes.`,
      LOCKED,
    );
  }
  const record = await context.dataSource.manager.findOneBy(AuthRecoveryCodeRecord, {
    userId: auth.user.id,
    codeHash: hashRecoveryCode(body.code),
  });
  if (!record) throw unprocessable('mfa_verification_failed', 'Invalid recovery code entered');
  const used = (): ApiError => unprocessable('recovery_code_used', 'This recovery code has been used already');
  if (record.usedAt !== null) throw used();
  const outcome = await context.dataSource.transaction(async (tx) => {
    // Only one request can spend the code: two raced in pass once.
    const spent = await tx.update(AuthRecoveryCodeRecord, { id: record.id, usedAt: IsNull() }, { usedAt: new Date() });
    if (spent.affected === 0) return undefined;
    return raiseSession(context, tx, auth.user, session.id, factor, RECOVERY_CODE_METHOD);
  });
  if (!outcome) throw used();
  await giveBackAttempt(factorCodes, codesKey);
  await giveBackAttempt(accountSecrets, auth.user.id);
  return outcome;
}
