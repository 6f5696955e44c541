import { SignJWT, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { signHs256 } from '../../../server/src/identity/hs256.js';

const secret = 'a-secret-of-at-least-thirty-two-characters-for-hs256';
const claims = {
  iss: 'http://127.0.0.1:3000/auth/v1',
  sub: '0b7e1c2a-4f6d-4e55-9a0b-3c1d2e3f4a5b',
  aud: 'authenticated',
  exp: 2_000_000_000,
  iat: 1_900_000_000,
  email: 'ruth@example.org',
  user_metadata: { first: 'Ruth', note: 'ünïcødé and "quotes"' },
  amr: [{ method: 'password', timestamp: 1_900_000_000 }],
};

describe('signHs256', () => {
  it('makes the very token jose would sign, which jose verifies with the secret', async () => {
    const key = new TextEncoder().encode(secret);
    const token = signHs256(secret, claims);
    expect(token).toBe(await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key));
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
    expect(payload).toEqual(claims);
  });

  it('signs with the secret given: another secret, or a changed claim, fails verification', async () => {
    const token = signHs256(secret, claims);
    await expect(jwtVerify(token, new TextEncoder().encode(`${secret}-other`))).rejects.toThrow(/signature/);
    const [header, , signature] = token.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url')}.${signature}`;
    await expect(jwtVerify(forged, new TextEncoder().encode(secret))).rejects.toThrow(/signature/);
  });
});
