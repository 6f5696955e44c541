import { describe, expect, it } from 'vitest';
import { startTestApp } from '../../support/app.js';
import { forTheFile } from '../../support/for-the-file.js';
import { firstError, LOGIN, signUpMember } from '../../support/members.js';

// An instance of its own, so that no other test's sign-ins count against this address.
const fresh = forTheFile(() => startTestApp({ AUTH_RATE_LIMIT_OTP: '1000' }));

describe('brute force (B11)', () => {
  it('limits repeated failed logins from one address, whatever X-Forwarded-For claims', async () => {
    const { email } = await signUpMember(fresh);
    const codes: unknown[] = [];
    for (let attempt = 0; attempt < 35; attempt++) {
      const response = await fresh.graphql(
        LOGIN,
        { input: { email, password: `wrong guess ${attempt}` } },
        { headers: { 'x-forwarded-for': `203.0.113.${attempt}` } },
      );
      codes.push(firstError(response).code);
    }
    expect(codes.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => 'INVALID_CREDENTIALS'));
    expect(codes.at(-1)).toBe('RATE_LIMITED');
  });
});
