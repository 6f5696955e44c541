import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { randomUUID } from 'node:crypto';
import { IsNull } from 'typeorm';
import { z } from 'zod';
import { badRequest, unprocessable } from '../errors.js';
import { AuthFactorRecord, AuthPasskeyChallengeRecord } from '../factor-entities.js';
import { readBody } from '../request.js';
import type { RouteCall } from '../route.js';
import { text } from '../schemas.js';
import { issueSession } from '../sessions.js';
import { isUuid } from '../../../rules/uuid.js';
import { findUserById, isBanned } from '../users.js';
import {
  WEBAUTHN_METHOD,
  credentialColumns,
  raiseSession,
  storedCredential,
  verified,
  webAuthnLibrary,
} from '../webauthn.js';

/**
 * Sign-in with a passkey on its own (an extension of Supabase Auth's API, in the shape
 * supabase-js's `signInWithPasskey()` calls): `options` answers a challenge for any discoverable
 * credential of this relying party; `verify` finds the verified WebAuthn factor whose credential
 * signed it and answers a session. The authenticator must verify its user (PIN or biometric), so
 * the passkey is two factors in one: the session starts at aal2 with `webauthn` in `amr`.
 */

/** How long the browser is told a ceremony may take (ms). */
const CEREMONY_TIMEOUT_MS = 5 * 60 * 1000;

const verifyBody = z.object({
  challenge_id: text,
  credential: z.object({ id: z.string().min(1).max(512), response: z.record(z.string(), z.unknown()) }).loose(),
});

const failed = (message: string) => unprocessable('webauthn_verification_failed', message);

/** `POST /passkeys/authentication/options`: a challenge for a discoverable credential. */
export async function passkeyOptions(
  _request: FastifyRequest,
  _reply: FastifyReply,
  { context, client }: RouteCall,
): Promise<unknown> {
  const { rpId } = context.settings.webauthn;
  const options = await (
    await webAuthnLibrary()
  ).generateAuthenticationOptions({
    rpID: rpId,
    userVerification: 'required',
    timeout: CEREMONY_TIMEOUT_MS,
  });
  const now = new Date();
  const record = context.dataSource.manager.create(AuthPasskeyChallengeRecord, {
    id: randomUUID(),
    challenge: options.challenge,
    ipAddress: client.ip,
    usedAt: null,
    createdAt: now,
  });
  await context.dataSource.manager.insert(AuthPasskeyChallengeRecord, record);
  return {
    challenge_id: record.id,
    options,
    expires_at: Math.floor(now.getTime() / 1000) + context.settings.mfa.challengeExpiry,
  };
}

/**
 * `POST /passkeys/authentication/verify`: the challenge is spent first (an answer counts once),
 * then the signature is checked against the factor registered with that credential, with the
 * configured relying party id and origins, and the user verified by the authenticator.
 */
export async function passkeyVerify(
  request: FastifyRequest,
  _reply: FastifyReply,
  { context, client }: RouteCall,
): Promise<unknown> {
  const body = readBody(request, verifyBody);
  if (!isUuid(body.challenge_id)) throw badRequest('bad_json', 'Could not parse request body as JSON: challenge_id');
  const { manager } = context.dataSource;
  const challenge = await manager.findOneBy(AuthPasskeyChallengeRecord, { id: body.challenge_id.toLowerCase() });
  if (!challenge) throw unprocessable('webauthn_challenge_not_found', 'Passkey challenge not found');
  const spent = await manager.update(
    AuthPasskeyChallengeRecord,
    { id: challenge.id, usedAt: IsNull() },
    { usedAt: new Date() },
  );
  if (spent.affected === 0) {
    throw unprocessable('webauthn_challenge_expired', 'This challenge has been answered already; ask for a new one');
  }
  if (Date.now() > challenge.createdAt.getTime() + context.settings.mfa.challengeExpiry * 1000) {
    throw unprocessable('webauthn_challenge_expired', 'This challenge has expired; ask for a new one');
  }
  const factor = await manager.findOneBy(AuthFactorRecord, {
    webAuthnCredentialId: body.credential.id,
    factorType: 'webauthn',
    status: 'verified',
  });
  if (!factor) throw failed('This passkey is not registered here');
  const credential = storedCredential(factor);
  const { rpId, origins } = context.settings.webauthn;
  const outcome = await verified('webauthn_verification_failed', async () =>
    (await webAuthnLibrary()).verifyAuthenticationResponse({
      response: body.credential as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge.challenge,
      expectedOrigin: origins,
      expectedRPID: rpId,
      credential,
      requireUserVerification: true,
    }),
  );
  const user = await findUserById(manager, factor.userId);
  if (!user) throw failed('This passkey is not registered here');
  if (isBanned(user)) throw badRequest('user_banned', 'User is banned');

  return context.dataSource.transaction(async (tx) => {
    const counted = credentialColumns({ ...credential, counter: outcome.authenticationInfo.newCounter });
    await tx.update(AuthFactorRecord, { id: factor.id }, { ...counted, lastChallengedAt: new Date() });
    // A session like any sign-in's, then raised through the factor (its first token pair is replaced).
    const started = await issueSession(context, tx, user.id, WEBAUTHN_METHOD, client);
    return raiseSession(context, tx, user, sessionOf(started.access_token), factor, WEBAUTHN_METHOD);
  });
}

/** The `session_id` claim of a token this service has just signed. */
function sessionOf(accessToken: string): string {
  const payload = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
    session_id?: unknown;
  };
  if (typeof payload.session_id !== 'string') throw new Error('a new session token has no session_id');
  return payload.session_id;
}
