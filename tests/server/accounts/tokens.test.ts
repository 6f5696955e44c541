import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../../support/app.js';
import { forTheFile } from '../../support/for-the-file.js';
import { decodeClaims, serviceClient } from '../../support/identity.js';
import { firstError, ME, signUpMember } from '../../support/members.js';

const SECRET = 'a-token-test-secret-long-enough-for-hs256-signing';

// Signed with a secret of the test's own, so that tokens can be re-signed with changed claims.
const own = forTheFile(() => startTestApp({ AUTH_JWT_SECRET: SECRET, AUTH_RATE_LIMIT_OTP: '1000' }));

describe('tokens (B8)', () => {
  async function resign(token: string, change: Record<string, unknown>, secret = SECRET): Promise<string> {
    return new SignJWT({ ...decodeClaims(token), ...change })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(secret));
  }

  async function meStatus(token: string): Promise<[number, unknown]> {
    const response = await own.graphql(ME, {}, { token });
    return [response.status, firstError(response).code];
  }

  it('accepts the genuine token, and a faithful re-signing of it', async () => {
    const { session } = await signUpMember(own);
    expect((await own.graphql(ME, {}, { token: session.accessToken })).status).toBe(200);
    expect((await own.graphql(ME, {}, { token: await resign(session.accessToken, {}) })).status).toBe(200);
  });

  it.each([
    ['expired', { exp: Math.floor(Date.now() / 1000) - 60 }],
    ['for another audience', { aud: 'somebody-else' }],
    ['with another role', { role: 'service_role' }],
  ])('refuses a token %s', async (_case, change) => {
    const { session } = await signUpMember(own);
    expect(await meStatus(await resign(session.accessToken, change))).toEqual([401, 'UNAUTHENTICATED']);
  });

  it('refuses a token signed with a foreign key', async () => {
    const { session } = await signUpMember(own);
    const forged = await resign(session.accessToken, {}, 'a-foreign-secret-that-is-also-long-enough-to-sign');
    expect(await meStatus(forged)).toEqual([401, 'UNAUTHENTICATED']);
  });

  it('refuses alg none', async () => {
    const { session } = await signUpMember(own);
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(await meStatus(`${header}.${session.accessToken.split('.')[1] ?? ''}.`)).toEqual([401, 'UNAUTHENTICATED']);
  });

  it("refuses a deleted user's token and a logged-out session's token", async () => {
    const deleted = await signUpMember(own);
    await serviceClient(own).auth.admin.deleteUser(deleted.member.user.uid);
    expect(await meStatus(deleted.session.accessToken)).toEqual([401, 'UNAUTHENTICATED']);

    const loggedOut = await signUpMember(own);
    await own.graphql('mutation { logout }', {}, { token: loggedOut.session.accessToken });
    expect(await meStatus(loggedOut.session.accessToken)).toEqual([401, 'UNAUTHENTICATED']);
  });
});
