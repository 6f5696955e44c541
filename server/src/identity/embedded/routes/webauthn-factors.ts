import type { FastifyRequest } from 'fastify';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { randomUUID } from 'node:crypto';
import { IsNull } from 'typeorm';
import { z } from 'zod';
import type { AuthSessionRecord } from '../entities.js';
import { badRequest, unprocessable, validationFailed } from '../errors.js';
import { AuthChallengeRecord, AuthFactorRecord } from '../factor-entities.js';
import { checkEnrollment } from '../factors.js';
import { readBody } from '../request.js';
import type { UserCall } from '../route.js';
import { text } from '../schemas.js';
import type { AccessTokenResponse } from '../sessions.js';
import { isUuid } from '../../../rules/uuid.js';
import {
  WEBAUTHN_METHOD,
  credentialColumns,
  raiseSession,
  readSession,
  relyingParty,
  relyingPartyBody,
  storedCredential,
  verified,
  webAuthnLibrary,
} from '../webauthn.js';
import type { WebAuthnSession } from '../webauthn.js';

/**
 * WebAuthn factors in Supabase Auth's factor API shape, as supabase-js's `mfa.webauthn` calls it:
 * `POST /factors {factor_type: 'webauthn'}`, then a challenge answering `create` options (an
 * unverified factor: register a credential) or `request` options (a verified one: sign with it),
 * then a verification with `{webauthn: {type, credential_response}}` that raises the session to aal2.
 */

/** Supabase Auth keeps an unverified, never challenged factor this long. */
/** How long the browser is told a ceremony may take (ms). */
const CEREMONY_TIMEOUT_MS = 5 * 60 * 1000;

const challengeBody = z.object({ webauthn: relyingPartyBody });
const verifyBody = z.object({
  challenge_id: text,
  webauthn: z
    .object({
      type: z.enum(['create', 'request']),
      credential_response: z.record(z.string(), z.unknown()),
    })
    .loose(),
});

/** `POST /factors` with `factor_type: 'webauthn'`: an unverified factor to register a credential on. */
export async function enrollWebAuthnFactor(
  call: UserCall,
  session: AuthSessionRecord,
  friendlyName: string,
): Promise<unknown> {
  const { context, auth } = call;
  const { mfa } = context.settings;
  const factor = await context.dataSource.transaction(async (manager) => {
    await checkEnrollment(manager, auth.user.id, friendlyName === '' ? null : friendlyName, session.aal, mfa);
    const now = new Date();
    const record = manager.create(AuthFactorRecord, {
      id: randomUUID(),
      userId: auth.user.id,
      friendlyName,
      factorType: 'webauthn',
      status: 'unverified',
      secret: '',
      lastUsedStep: null,
      lastChallengedAt: null,
      webAuthnCredentialId: null,
      webAuthnCredential: null,
      createdAt: now,
      updatedAt: now,
    });
    await manager.save(AuthFactorRecord, record);
    return record;
  });
  return { id: factor.id, type: 'webauthn', friendly_name: factor.friendlyName };
}

/** The options of the ceremony a challenge of `factor` starts: register (unverified) or sign (verified). */
async function ceremonyOptions(
  call: UserCall,
  factor: AuthFactorRecord,
  session: Omit<WebAuthnSession, 'challenge'>,
): Promise<{ challenge: string; publicKey: Record<string, unknown> }> {
  const { context, auth } = call;
  if (session.type === 'request') {
    const credential = storedCredential(factor);
    const options = await (
      await webAuthnLibrary()
    ).generateAuthenticationOptions({
      rpID: session.rpId,
      allowCredentials: [{ id: credential.id, transports: credential.transports }],
      userVerification: 'preferred',
      timeout: CEREMONY_TIMEOUT_MS,
    });
    return { challenge: options.challenge, publicKey: { ...options } };
  }
  const others = await context.dataSource.manager.findBy(AuthFactorRecord, {
    userId: auth.user.id,
    factorType: 'webauthn',
    status: 'verified',
  });
  const name = auth.user.email ?? auth.user.id;
  const options = await (
    await webAuthnLibrary()
  ).generateRegistrationOptions({
    rpName: context.settings.webauthn.rpName,
    rpID: session.rpId,
    userID: Buffer.from(auth.user.id, 'utf8'),
    userName: name,
    userDisplayName: factor.friendlyName === '' ? name : factor.friendlyName,
    attestationType: 'none',
    // Discoverable, so that the same passkey can also sign in on its own (`/passkeys/authentication`).
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    excludeCredentials: others.map((other) => ({ id: storedCredential(other).id })),
    timeout: CEREMONY_TIMEOUT_MS,
  });
  return { challenge: options.challenge, publicKey: { ...options } };
}

/** `POST /factors/:id/challenge` of a WebAuthn factor: the options for `navigator.credentials`. */
export async function challengeWebAuthnFactor(
  request: FastifyRequest,
  call: UserCall,
  factor: AuthFactorRecord,
): Promise<unknown> {
  const { context, client } = call;
  const body = readBody(request, challengeBody);
  const party = relyingParty(context, body.webauthn);
  const type = factor.status === 'verified' ? 'request' : 'create';
  const { challenge, publicKey } = await ceremonyOptions(call, factor, { type, ...party });
  const data: WebAuthnSession = { type, challenge, ...party };
  const now = new Date();
  const record = context.dataSource.manager.create(AuthChallengeRecord, {
    id: randomUUID(),
    factorId: factor.id,
    ipAddress: client.ip,
    verifiedAt: null,
    webAuthnSessionData: JSON.stringify(data),
    createdAt: now,
  });
  await context.dataSource.transaction(async (tx) => {
    await tx.save(AuthChallengeRecord, record);
    await tx.update(AuthFactorRecord, { id: factor.id }, { lastChallengedAt: now });
  });
  return {
    id: record.id,
    type: 'webauthn',
    expires_at: Math.floor(now.getTime() / 1000) + context.settings.mfa.challengeExpiry,
    webauthn: { type, credential_options: { publicKey } },
  };
}

/**
 * `POST /factors/:id/verify` of a WebAuthn factor: a registration (`create`) records the credential
 * and verifies the factor; a signature (`request`) moves its counter on. Either raises the session
 * to aal2 with `webauthn` in `amr`. The challenge is spent first, so a replayed answer is refused.
 */
export async function verifyWebAuthnFactor(
  request: FastifyRequest,
  call: UserCall,
  session: AuthSessionRecord,
  factor: AuthFactorRecord,
): Promise<AccessTokenResponse> {
  const { context, auth, client } = call;
  const { manager } = context.dataSource;
  const body = readBody(request, verifyBody);
  if (!isUuid(body.challenge_id)) throw badRequest('bad_json', 'Could not parse request body as JSON: challenge_id');
  const challenge = await manager.findOneBy(AuthChallengeRecord, {
    id: body.challenge_id.toLowerCase(),
    factorId: factor.id,
  });
  const ceremony = readSession(challenge?.webAuthnSessionData ?? null);
  if (!challenge || !ceremony) {
    throw unprocessable('mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
  }
  if (challenge.verifiedAt !== null) {
    throw unprocessable('mfa_challenge_expired', 'This challenge has been answered already; create a new challenge.');
  }
  if (challenge.ipAddress !== client.ip) {
    throw unprocessable('mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
  }
  if (Date.now() > challenge.createdAt.getTime() + context.settings.mfa.challengeExpiry * 1000) {
    await manager.delete(AuthChallengeRecord, { id: challenge.id });
    throw unprocessable(
      'mfa_challenge_expired',
      `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
    );
  }
  if (body.webauthn.type !== ceremony.type) {
    throw validationFailed(`This challenge expects a webauthn response of type ${ceremony.type}`);
  }
  // Spent before the (slow) check: two answers raced in, or one replayed, pass at most once.
  const spent = await manager.update(
    AuthChallengeRecord,
    { id: challenge.id, verifiedAt: IsNull() },
    { verifiedAt: new Date() },
  );
  if (spent.affected === 0) {
    throw unprocessable('mfa_challenge_expired', 'This challenge has been answered already; create a new challenge.');
  }
  const expected = {
    expectedChallenge: ceremony.challenge,
    expectedOrigin: ceremony.origins,
    expectedRPID: ceremony.rpId,
  };
  const response = body.webauthn.credential_response;
  const columns =
    ceremony.type === 'create'
      ? await registrationColumns(response, expected)
      : await signatureColumns(factor, response, expected);

  return context.dataSource.transaction(async (tx) => {
    if (ceremony.type === 'create') {
      const taken = await tx.findOneBy(AuthFactorRecord, { webAuthnCredentialId: columns.webAuthnCredentialId });
      if (taken) throw unprocessable('mfa_verification_failed', 'This passkey is registered already');
    }
    await tx.update(AuthFactorRecord, { id: factor.id }, { ...columns, status: 'verified', updatedAt: new Date() });
    return raiseSession(context, tx, auth.user, session.id, factor, WEBAUTHN_METHOD);
  });
}

interface Expected {
  expectedChallenge: string;
  expectedOrigin: string[];
  expectedRPID: string;
}

/** Checks a registration (attestation `none` or any other format the library knows); answers the credential's columns. */
async function registrationColumns(
  response: Record<string, unknown>,
  expected: Expected,
): Promise<ReturnType<typeof credentialColumns>> {
  const outcome = await verified('mfa_verification_failed', async () =>
    (await webAuthnLibrary()).verifyRegistrationResponse({
      response: response as unknown as RegistrationResponseJSON,
      ...expected,
      requireUserVerification: false,
    }),
  );
  if (!outcome.registrationInfo) throw unprocessable('mfa_verification_failed', 'WebAuthn verification failed');
  return credentialColumns(outcome.registrationInfo.credential);
}

/** Checks a signature of a registered factor's credential; answers its columns with the new counter. */
async function signatureColumns(
  factor: AuthFactorRecord,
  response: Record<string, unknown>,
  expected: Expected,
): Promise<ReturnType<typeof credentialColumns>> {
  const credential = storedCredential(factor);
  if (response.id !== credential.id) throw unprocessable('mfa_verification_failed', 'This is not the factor’s passkey');
  const outcome = await verified('mfa_verification_failed', async () =>
    (await webAuthnLibrary()).verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      ...expected,
      credential,
      requireUserVerification: false,
    }),
  );
  return credentialColumns({ ...credential, counter: outcome.authenticationInfo.newCounter });
}
