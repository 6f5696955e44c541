import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { validationFailed } from './errors.js';
import { AuthFlowStateRecord } from './flow-state.entity.js';
import type { ChallengeMethod, FlowMethod } from './flow-state.entity.js';

/** The PKCE parameters of a request, once checked; null for the implicit flow. */
export interface PkceChallenge {
  codeChallenge: string;
  method: ChallengeMethod;
}

const CHALLENGE = /^[a-zA-Z._~0-9-]+$/;
/** The prefix Supabase Auth puts on the token of a PKCE link, by which `/verify` knows the flow. */
export const PKCE_PREFIX = 'pkce_';

/**
 * Checks `code_challenge` and `code_challenge_method` as Supabase Auth's `validatePKCEParams`
 * does: both or neither, 43–128 unreserved characters, `s256` or `plain` in any case.
 */
export function readPkce(body: { code_challenge: string; code_challenge_method: string }): PkceChallenge | null {
  const challenge = body.code_challenge;
  const method = body.code_challenge_method.toLowerCase();
  if ((challenge === '') !== (method === '')) {
    throw validationFailed('PKCE flow requires code_challenge_method and code_challenge');
  }
  if (challenge === '') return null;
  if (challenge.length < 43 || challenge.length > 128) {
    throw validationFailed('code challenge has to be between 43 and 128 characters');
  }
  if (!CHALLENGE.test(challenge)) {
    throw validationFailed(
      'code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes',
    );
  }
  if (method !== 's256' && method !== 'plain') {
    throw validationFailed(`unsupported code_challenge method "${body.code_challenge_method}"`);
  }
  return { codeChallenge: challenge, method };
}

const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');

/**
 * Records a PKCE flow for a user, replacing an earlier one of the same method (its link is
 * replaced by the one about to be mailed).
 */
export async function startFlow(
  manager: EntityManager,
  userId: string,
  method: FlowMethod,
  pkce: PkceChallenge,
): Promise<void> {
  await manager.delete(AuthFlowStateRecord, { userId, authenticationMethod: method });
  await manager.insert(AuthFlowStateRecord, {
    id: randomUUID(),
    userId,
    authCodeHash: sha256Hex(randomUUID()),
    codeChallenge: pkce.codeChallenge,
    codeChallengeMethod: pkce.method,
    authenticationMethod: method,
    authCodeIssuedAt: null,
    createdAt: new Date(),
  });
}

/**
 * Hands out the code of the user's flow for `method` once its link was followed: a fresh code
 * (only its hash is kept), or null when no such flow was started.
 */
export async function issueAuthCode(
  manager: EntityManager,
  userId: string,
  method: FlowMethod,
): Promise<string | null> {
  const flow = await manager.findOne(AuthFlowStateRecord, {
    where: { userId, authenticationMethod: method },
    order: { createdAt: 'DESC' },
  });
  if (!flow) return null;
  const code = randomUUID();
  await manager.update(
    AuthFlowStateRecord,
    { id: flow.id },
    { authCodeHash: sha256Hex(code), authCodeIssuedAt: new Date() },
  );
  return code;
}

/** Whether `verifier` answers the stored challenge, compared in constant time. */
export function verifierMatches(flow: AuthFlowStateRecord, verifier: string): boolean {
  const expected =
    flow.codeChallengeMethod === 's256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  const a = Buffer.from(expected);
  const b = Buffer.from(flow.codeChallenge);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The flow whose code is `authCode`, if its link was followed. */
export function findFlowByCode(manager: EntityManager, authCode: string): Promise<AuthFlowStateRecord | null> {
  return manager.findOneBy(AuthFlowStateRecord, { authCodeHash: sha256Hex(authCode) });
}

/** The flow method of a `/verify` type, for the types a PKCE link can carry. */
export function flowMethodFor(type: string): FlowMethod | undefined {
  switch (type) {
    case 'signup':
      return 'email/signup';
    case 'recovery':
    case 'magiclink':
    case 'email_change':
    case 'invite':
      return type;
    default:
      return undefined;
  }
}
