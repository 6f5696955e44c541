import { createHmac } from 'node:crypto';
import type { CryptoKey, JWTPayload } from 'jose';

/**
 * An HS256 secret as a key imported once. Given the raw bytes, jose imports them again at every
 * sign and verify: a sign-in signs once, and every request with a token verifies.
 */
export function importHs256Secret(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
}

/** The base64url protected header of every HS256 token the service signs. */
const HS256_HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/**
 * A compact HS256 JWT (RFC 7515) signed at once with node:crypto's HMAC. jose signs through
 * WebCrypto, whose HMAC is a thread-pool job: at sign-in it queued behind the password hashes
 * filling the pool and cost the event loop more than the HMAC itself. Tokens are verified with
 * jose as before (tests/unit/identity/hs256.test.ts checks the two agree).
 */
export function signHs256(secret: string, claims: JWTPayload): string {
  const signingInput = `${HS256_HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;
}
