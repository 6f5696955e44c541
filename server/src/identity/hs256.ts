import type { CryptoKey } from 'jose';

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
