import { describe, expect, it } from 'vitest';
import { startTestApp } from '../../support/app.js';
import { forTheFile } from '../../support/for-the-file.js';
import { firstError, signUpMember } from '../../support/members.js';

const api = forTheFile(() => startTestApp({ AUTH_RATE_LIMIT_OTP: '1000' }));

describe('mass assignment (B5)', () => {
  it.each([
    ['updateProfile', 'mutation { updateProfile(input: { plan: plus }) { name } }'],
    ['updateProfile', 'mutation { updateProfile(input: { stripeRole: "plus" }) { name } }'],
    ['updateProfile', 'mutation { updateProfile(input: { uid: "someone" }) { name } }'],
    ['updateProfile', 'mutation { updateProfile(input: { joined: "2000-01-01T00:00:00Z" }) { name } }'],
    [
      'signUp',
      'mutation { signUp(input: { email: "x@example.org", password: "a fine passphrase", first: "X", platform: "web", role: "admin" }) { confirmationSent } }',
    ],
  ])('%s offers no way to set %s', async (_name, mutation) => {
    const { session } = await signUpMember(api);
    const response = await api.graphql(mutation, {}, { token: session.accessToken });
    expect(response.status).toBe(400);
    expect(firstError(response).code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});
