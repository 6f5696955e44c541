import type * as SimpleWebAuthn from '@simplewebauthn/server';
import type { WebAuthnCredential } from '@simplewebauthn/server';
import type { EntityManager } from 'typeorm';
import { Not } from 'typeorm';
import { z } from 'zod';
import type { IdentityContext } from './context.js';
import { AuthSessionRecord } from './entities.js';
import type { AmrEntry, AuthUserRecord } from './entities.js';
import { ApiError, forbidden, unprocessable, validationFailed } from './errors.js';
import { AuthFactorRecord } from './factor-entities.js';
import { reissueSession } from './sessions.js';
import type { AccessTokenResponse } from './sessions.js';

/** `@simplewebauthn/server`, loaded at the first passkey request: no start pays for it (P9). */
export const webAuthnLibrary = (): Promise<typeof SimpleWebAuthn> => import('@simplewebauthn/server');

/** The `amr` method a WebAuthn factor (a passkey) adds to a session. */
export const WEBAUTHN_METHOD = 'webauthn';

/** The relying party a ceremony is made for: its id and the origins it may be answered from. */
export interface RelyingParty {
  rpId: string;
  origins: string[];
}

/** What a WebAuthn challenge keeps until it is answered (`auth_mfa_challenges.web_authn_session_data`). */
export interface WebAuthnSession extends RelyingParty {
  type: 'create' | 'request';
  challenge: string;
}

/** A registered credential as stored in `auth_mfa_factors.web_authn_credential`. */
interface StoredCredential {
  publicKey: string;
  counter: number;
  transports: string[];
}

/** The longest credential id accepted (base64url characters of 384 bytes), as stored in its column. */
const MAX_CREDENTIAL_ID = 512;

/** supabase-js sends `{ rpId, rpOrigins }`; snake_case is accepted too. */
export const relyingPartyBody = z
  .object({
    rpId: z.string().optional(),
    rp_id: z.string().optional(),
    rpOrigins: z.array(z.string()).optional(),
    rp_origins: z.array(z.string()).optional(),
  })
  .optional();

/**
 * The relying party of a ceremony: the configured one, narrowed to what the client asked for. Unlike
 * Supabase Auth, which takes the client's relying party as it comes, an id or origin that this
 * service is not configured for (WEBAUTHN_RP_ID, WEBAUTHN_ORIGINS) is refused.
 */
export function relyingParty(context: IdentityContext, asked: z.infer<typeof relyingPartyBody>): RelyingParty {
  const configured = context.settings.webauthn;
  const rpId = asked?.rpId ?? asked?.rp_id ?? configured.rpId;
  if (rpId !== configured.rpId) {
    throw validationFailed(`rpId ${rpId} is not this service's relying party id (${configured.rpId})`);
  }
  const origins = asked?.rpOrigins ?? asked?.rp_origins ?? configured.origins;
  const foreign = origins.filter((origin) => !configured.origins.includes(origin));
  if (foreign.length > 0 || origins.length === 0) {
    throw validationFailed(`rpOrigins must be among this service's origins: ${configured.origins.join(', ')}`);
  }
  return { rpId, origins };
}

export function readSession(data: string | null): WebAuthnSession | undefined {
  if (data === null) return undefined;
  return JSON.parse(data) as WebAuthnSession;
}

/** The credential of a registered WebAuthn factor, in the shape @simplewebauthn/server verifies with. */
export function storedCredential(factor: AuthFactorRecord): WebAuthnCredential {
  if (factor.webAuthnCredentialId === null || factor.webAuthnCredential === null) {
    throw unprocessable('mfa_verification_failed', 'This WebAuthn factor has no registered credential');
  }
  const stored = JSON.parse(factor.webAuthnCredential) as StoredCredential;
  return {
    id: factor.webAuthnCredentialId,
    publicKey: Buffer.from(stored.publicKey, 'base64url'),
    counter: stored.counter,
    transports: stored.transports,
  };
}

/** The columns that record a credential (at registration) or its new signature counter (at each use). */
export function credentialColumns(credential: WebAuthnCredential): {
  webAuthnCredentialId: string;
  webAuthnCredential: string;
} {
  if (credential.id.length > MAX_CREDENTIAL_ID) throw validationFailed('The credential id is too long');
  const stored: StoredCredential = {
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports ?? [],
  };
  return { webAuthnCredentialId: credential.id, webAuthnCredential: JSON.stringify(stored) };
}

/** Runs a verification of @simplewebauthn/server; what it refuses becomes `code` (422). */
export async function verified<T extends { verified: boolean }>(code: string, verify: () => Promise<T>): Promise<T> {
  let outcome: T;
  try {
    outcome = await verify();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw unprocessable(code, `WebAuthn verification failed: ${reason}`);
  }
  if (!outcome.verified) throw unprocessable(code, 'WebAuthn verification failed');
  return outcome;
}

/**
 * Raises `sessionId` to aal2 through `factor` (`amr` gains `method`) and answers a new token pair,
 * as a verified TOTP code does: the member's other aal1 sessions end, abandoned enrolments of the
 * same type go.
 */
export async function raiseSession(
  context: IdentityContext,
  tx: EntityManager,
  user: AuthUserRecord,
  sessionId: string,
  factor: AuthFactorRecord,
  method: string,
): Promise<AccessTokenResponse> {
  const current = await tx.findOneBy(AuthSessionRecord, { id: sessionId });
  if (!current) throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
  const timestamp = Math.floor(Date.now() / 1000);
  const amr: AmrEntry[] = [...current.amr.filter((entry) => entry.method !== method), { method, timestamp }];
  Object.assign(current, { aal: 'aal2', amr, factorId: factor.id, updatedAt: new Date() });
  await tx.update(
    AuthSessionRecord,
    { id: current.id },
    { aal: 'aal2', amr, factorId: factor.id, updatedAt: current.updatedAt },
  );
  await tx.delete(AuthSessionRecord, { userId: user.id, aal: 'aal1', id: Not(current.id) });
  await tx.delete(AuthFactorRecord, { userId: user.id, status: 'unverified', factorType: factor.factorType });
  return reissueSession(context, tx, user, current);
}
